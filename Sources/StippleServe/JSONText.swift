import Stipple

/// JSON text of values read by the project's parser, written back as read (numbers keep
/// their literal), for the events the server passes on.
enum JSONText {
    static func value(_ v: JSONValue) -> String {
        switch v.kind {
        case .null: return "null"
        case let .bool(b): return b ? "true" : "false"
        case let .number(_, literal): return literal
        case let .string(s): return string(s)
        case let .array(items): return "[" + items.map(value).joined(separator: ",") + "]"
        case let .object(members): return "{" + members.map { string($0.key) + ":" + value($0.value) }.joined(separator: ",") + "}"
        }
    }

    static func string(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }
}
