/// A JSON value together with where it starts in its document, so that later
/// validation can point at the exact line and column of anything it rejects.
public struct JSONValue: Sendable {
    public enum Kind: Sendable {
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
    public struct Member: Sendable {
        public var key: String
        public var keyLocation: InputLocation
        public var value: JSONValue

        public init(key: String, keyLocation: InputLocation, value: JSONValue) {
            self.key = key; self.keyLocation = keyLocation; self.value = value
        }
    }

    public var kind: Kind
    /// Where the value's first character is: `.text(line:column:)`, both from 1.
    public var location: InputLocation

    public init(_ kind: Kind, at location: InputLocation) {
        self.kind = kind; self.location = location
    }

    /// "a string", "an object", ...: the kind of value, for "expected X, found Y" messages.
    public var kindDescription: String {
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
    public subscript(key: String) -> Member? {
        guard case let .object(members) = kind else { return nil }
        return members.first { $0.key == key }
    }
}
