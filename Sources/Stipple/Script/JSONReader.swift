/// Reads values out of a parsed JSON document (`JSONParser`), each error an `InputError`
/// at the line and column of the offending key or value, saying what was expected. One
/// reader for every JSON file Stipple takes: scripts, `stipple-test.json`, reports.
package protocol JSONReading {
    /// The file, for messages.
    var path: String { get }
}

/// A `JSONReading` for documents that need no more than the file's name.
package struct JSONReader: JSONReading {
    package let path: String
    package init(path: String) { self.path = path }

    /// Reads and parses the file at `path`: its root value and a reader for it.
    package static func load(path: String) throws(InputError) -> (JSONValue, JSONReader) {
        let bytes = try FileSystem.readBytes(path: path)
        return (try JSONParser.parse(bytes, file: path), JSONReader(path: path))
    }
}

extension JSONReading {
    package typealias Member = JSONValue.Member

    package func fail(_ location: InputLocation, _ message: String) -> InputError {
        InputError(file: path, location: location, message)
    }

    package func object(_ value: JSONValue, for what: String) throws(InputError) -> [Member] {
        guard case let .object(members) = value.kind else {
            throw fail(value.location, "expected an object for \(what), found \(value.kindDescription)")
        }
        return members
    }

    package func array(_ value: JSONValue, for what: String) throws(InputError) -> [JSONValue] {
        guard case let .array(items) = value.kind else {
            throw fail(value.location, "expected an array for \(what), found \(value.kindDescription)")
        }
        return items
    }

    package func string(_ value: JSONValue, for what: String) throws(InputError) -> String {
        guard case let .string(text) = value.kind else {
            throw fail(value.location, "expected a string for \(what), found \(value.kindDescription)")
        }
        return text
    }

    package func number(_ value: JSONValue, for what: String) throws(InputError) -> (Double, literal: String) {
        guard case let .number(v, literal) = value.kind else {
            throw fail(value.location, "expected a number for \(what), found \(value.kindDescription)")
        }
        return (v, literal)
    }

    /// A number that must also fit a 32-bit float (it goes to the GPU as one).
    package func float(_ value: JSONValue, for what: String) throws(InputError) -> Float {
        let (v, literal) = try number(value, for: what)
        let f = Float(v)
        guard f.isFinite else { throw fail(value.location, "\(what) \(literal) is out of range for a 32-bit float") }
        return f
    }

    /// A number in `range`, checked as read (an IEEE double: `-1e-300` is below 0, and
    /// `1.00000000000000001` is exactly 1) before it is narrowed to a 32-bit float, so that
    /// narrowing cannot carry a value into the range. `expected` words the range in the error.
    package func float(_ value: JSONValue, for what: String, in range: ClosedRange<Double>,
                       expected: String) throws(InputError) -> Float {
        let (v, _) = try number(value, for: what)
        guard range.contains(v) else { throw fail(value.location, "\(what) must be from \(expected), found \(literalText(value))") }
        return try float(value, for: what)
    }

    /// A whole number in `range`. `1.0` and `1e3` are whole; plain integer literals are
    /// checked exactly, so a value beyond a Double's 53 bits cannot round into range.
    package func wholeNumber(_ value: JSONValue, for what: String, in range: ClosedRange<Int>) throws(InputError) -> Int {
        let (v, literal) = try number(value, for: what)
        let outOfRange = fail(value.location, "\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound), found \(literal)")
        if literal.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }) {
            guard let n = Int(literal), range.contains(n) else { throw outOfRange }
            return n
        }
        guard v == v.rounded(), v >= Double(range.lowerBound), v <= Double(range.upperBound) else { throw outOfRange }
        return Int(v)
    }

    package func member(_ key: String, in members: [Member]) -> Member? {
        members.first { $0.key == key }
    }

    package func required(_ key: String, in members: [Member], of value: JSONValue,
                          context: String) throws(InputError) -> Member {
        guard let m = member(key, in: members) else {
            throw fail(value.location, "missing key \"\(key)\" in \(context)")
        }
        return m
    }

    package func checkKeys(_ members: [Member], allowed: [String], in context: String) throws(InputError) {
        for m in members where !allowed.contains(m.key) {
            throw fail(m.keyLocation, "unknown key \"\(m.key)\" in \(context); expected one of: \(allowed.joined(separator: ", "))")
        }
    }

    package func literalText(_ value: JSONValue) -> String {
        if case let .number(_, literal) = value.kind { return literal }
        return value.kindDescription
    }

    package func bool(_ value: JSONValue, for what: String) throws(InputError) -> Bool {
        guard case let .bool(b) = value.kind else {
            throw fail(value.location, "expected true or false for \(what), found \(value.kindDescription)")
        }
        return b
    }
}
