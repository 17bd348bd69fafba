/// A JSON value together with where it starts in its document, so that later
/// validation can point at the exact line and column of anything it rejects.
package struct JSONValue: Sendable {
    package enum Kind: Sendable {
        case null
        case bool(Bool)
        /// Always finite. `literal` is the text as written, for messages and for
        /// exact integer checks beyond a Double's 53 bits.
        case number(Double, literal: String)
        case string(String)
        case array([JSONValue])
        /// Members in the order written; keys are unique (the parser rejects repeats).
        case object([Member])
    }

    /// One `"key": value` pair of an object, with the key's own location.
    package struct Member: Sendable {
        package var key: String
        package var keyLocation: InputLocation
        package var value: JSONValue

        package init(key: String, keyLocation: InputLocation, value: JSONValue) {
            self.key = key; self.keyLocation = keyLocation; self.value = value
        }
    }

    package var kind: Kind
    /// Where the value's first character is: `.text(line:column:)`, both from 1.
    package var location: InputLocation

    package init(_ kind: Kind, at location: InputLocation) {
        self.kind = kind; self.location = location
    }

    /// "a string", "an object", ...: the kind of value, for "expected X, found Y" messages.
    package var kindDescription: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The member named `key`, when this is an object that has one.
    package subscript(key: String) -> Member? {
        guard case let .object(members) = kind else { return nil }
        return members.first { $0.key == key }
    }
}

extension JSONValue {
    /// `s` as a JSON string: quotes, backslashes and control characters escaped.
    package static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// The value as JSON text, as read (a number keeps its literal).
    package var text: String {
        switch kind {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(_, literal): return literal
        case let .string(s): return JSONValue.quoted(s)
        case let .array(items): return "[" + items.map(\.text).joined(separator: ",") + "]"
        case let .object(members): return "{" + members.map { JSONValue.quoted($0.key) + ":" + $0.value.text }.joined(separator: ",") + "}"
        }
    }
}
