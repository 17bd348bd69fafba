/// A small, strict XML reader for ink files: elements, attributes, text, comments, CDATA,
/// processing instructions and a DOCTYPE (skipped), the five predefined entities and
/// character references. Every element and attribute keeps its byte offset so that any
/// later complaint names the line and column (both from 1; columns count Unicode scalars).
///
/// Names keep their prefix (`inkml:trace`); `localName` drops it. Namespaces are not
/// resolved: InkML files in the wild put InkML elements under prefixes, under a default
/// namespace and under none at all, and a reader that insisted would refuse real ink.
package struct InkXMLElement: Sendable {
    package var name: String
    package var attributes: [(name: String, value: String, offset: Int)]
    package var children: [InkXMLElement] = []
    /// The element's own character data, entities decoded, with the byte offset in the
    /// file of every decoded byte (for errors inside a trace).
    package var text: [UInt8] = []
    package var textOffsets = TextOffsets()
    /// Byte offset of the `<` that opens the element.
    package var offset: Int

    package var localName: Substring { InkXMLElement.local(name) }

    package static func local(_ name: String) -> Substring {
        guard let colon = name.lastIndex(of: ":") else { return name[...] }
        return name[name.index(after: colon)...]
    }

    /// The attribute with this name, prefixed or not (`xml:id` is asked for as `xml:id`).
    package func attribute(_ wanted: String) -> String? {
        if let a = attributes.first(where: { $0.name == wanted }) { return a.value }
        guard !wanted.contains(":") else { return nil }
        return attributes.first(where: { InkXMLElement.local($0.name) == wanted && !$0.name.hasPrefix("xmlns") })?.value
    }

    package func attributeOffset(_ wanted: String) -> Int {
        attributes.first(where: { $0.name == wanted || InkXMLElement.local($0.name) == wanted })?.offset ?? offset
    }

    /// Children with this local name.
    package func children(named local: String) -> [InkXMLElement] {
        children.filter { $0.localName == local }
    }
}

package struct InkXMLParser {
    package static let maxDepth = 256

    let bytes: [UInt8]
    let file: String
    var pos = 0

    /// Parses a whole document and returns its root element.
    package static func parse(_ bytes: [UInt8], file: String) throws(InputError) -> InkXMLElement {
        var parser = InkXMLParser(bytes: bytes, file: file)
        return try parser.document()
    }

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes; self.file = file
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { pos = 3 }
    }

    /// The root element's name (any prefix such as `inkml:` dropped), when `bytes` begin as
    /// an XML document (a byte-order mark, the declaration, comments and a DOCTYPE may come
    /// first); nil otherwise. Only the start is looked at: enough to tell what a file is.
    package static func rootName(_ bytes: [UInt8]) -> String? {
        var p = InkXMLParser(bytes: bytes, file: "")
        guard (try? p.skipMisc()) != nil, p.peek("<"), !p.peek("<!"), !p.peek("<?") else { return nil }
        p.pos += 1
        guard let name = try? p.name(what: "the root element"), !name.isEmpty else { return nil }
        return String(name.split(separator: ":").last ?? Substring(name))
    }

    func fail(_ offset: Int, _ message: String) -> InputError {
        InputError(file: file, location: TextPositions(bytes).location(of: offset), message)
    }

    func peek(_ text: String, at p: Int? = nil) -> Bool {
        let start = p ?? pos
        let u = Array(text.utf8)
        guard start + u.count <= bytes.count else { return false }
        for i in 0..<u.count where bytes[start + i] != u[i] { return false }
        return true
    }

    mutating func skip(until end: String, what: String) throws(InputError) {
        let start = pos
        while pos < bytes.count {
            if peek(end) { pos += end.utf8.count; return }
            pos += 1
        }
        throw fail(start, "\(what) is not closed by \(end)")
    }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
            || b == 0x5F || b == 0x3A || b == 0x2D || b == 0x2E || b >= 0x80
    }

    mutating func skipSpace() { while pos < bytes.count, InkXMLParser.isSpace(bytes[pos]) { pos += 1 } }

    /// Comments, processing instructions and a DOCTYPE before or after the root.
    mutating func skipMisc() throws(InputError) {
        while true {
            skipSpace()
            if peek("<!--") { try skip(until: "-->", what: "a comment") }
            else if peek("<?") { try skip(until: "?>", what: "a processing instruction") }
            else if peek("<!DOCTYPE") { try skipDoctype() }
            else { return }
        }
    }

    mutating func skipDoctype() throws(InputError) {
        let start = pos
        var depth = 0
        var quote: UInt8?
        while pos < bytes.count {
            let b = bytes[pos]
            pos += 1
            // Brackets and > inside a quoted string (an entity's value, an identifier) are text.
            if let q = quote { if b == q { quote = nil }; continue }
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") { quote = b }
            else if b == UInt8(ascii: "[") { depth += 1 }
            else if b == UInt8(ascii: "]") { depth -= 1 }
            else if b == UInt8(ascii: ">") && depth <= 0 { return }
        }
        throw fail(start, "the DOCTYPE is not closed by >")
    }

    mutating func name(what: String) throws(InputError) -> String {
        let start = pos
        while pos < bytes.count, InkXMLParser.isNameByte(bytes[pos]) { pos += 1 }
        guard pos > start else {
            let found = pos < bytes.count ? "'\(String(decoding: [bytes[pos]], as: UTF8.self))'" : "the end of the file"
            throw fail(pos, "expected \(what), found \(found)")
        }
        return String(decoding: bytes[start..<pos], as: UTF8.self)
    }

    mutating func document() throws(InputError) -> InkXMLElement {
        // UTF-16 (a byte-order mark, or a declaration that names it): said plainly, not met
        // as a stray byte further on.
        let head = String(decoding: bytes.prefix(256), as: UTF8.self).lowercased()
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
            || head.contains("encoding=\"utf-16") || head.contains("encoding='utf-16") {
            throw fail(0, "the file is UTF-16; InkML is read in UTF-8: convert it first (iconv -f UTF-16 -t UTF-8)")
        }
        try skipMisc()
        guard pos < bytes.count else { throw fail(pos, "the file holds no XML element (expected <ink>)") }
        guard bytes[pos] == UInt8(ascii: "<") else { throw fail(pos, "expected an XML element such as <ink>, found text") }
        let root = try element()
        try skipMisc()
        guard pos >= bytes.count else { throw fail(pos, "unexpected content after the root element </\(root.name)>") }
        return root
    }

    /// One element and everything in it, iteratively (deep nesting cannot overflow the stack).
    mutating func element() throws(InputError) -> InkXMLElement {
        var stack: [InkXMLElement] = []
        while true {
            // At a '<' that opens an element.
            let open = pos
            pos += 1
            let tag = try name(what: "an element name after <")
            var element = InkXMLElement(name: tag, attributes: [], offset: open)
            var selfClosing = false
            while true {
                let before = pos
                skipSpace()
                guard pos < bytes.count else { throw fail(open, "<\(tag)> is not closed by >") }
                if bytes[pos] == UInt8(ascii: ">") { pos += 1; break }
                if peek("/>") { pos += 2; selfClosing = true; break }
                guard pos > before else { throw fail(pos, "expected a space, > or /> in <\(tag)>") }
                let at = pos
                let attr = try name(what: "an attribute name, > or /> in <\(tag)>")
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: "=") else { throw fail(pos, "expected = after attribute \(attr)") }
                pos += 1
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") || bytes[pos] == UInt8(ascii: "'") else {
                    throw fail(pos, "expected a quoted value for attribute \(attr)")
                }
                let quote = bytes[pos]
                pos += 1
                var value: [UInt8] = []
                while true {
                    guard pos < bytes.count else { throw fail(at, "the value of attribute \(attr) is not closed") }
                    let b = bytes[pos]
                    if b == quote { pos += 1; break }
                    if b == UInt8(ascii: "<") { throw fail(pos, "'<' is not allowed in an attribute value") }
                    if b == UInt8(ascii: "&") { value += try entity(); continue }
                    value.append(InkXMLParser.isSpace(b) ? 0x20 : b)
                    pos += 1
                }
                if element.attributes.contains(where: { $0.name == attr }) {
                    throw fail(at, "attribute \(attr) appears twice in <\(tag)>")
                }
                element.attributes.append((attr, String(decoding: value, as: UTF8.self), at))
            }
            if !selfClosing {
                guard stack.count < InkXMLParser.maxDepth else {
                    throw fail(open, "elements nest deeper than \(InkXMLParser.maxDepth) levels")
                }
                stack.append(element)
            } else if stack.isEmpty {
                return element
            } else {
                stack[stack.count - 1].children.append(element)
            }
            if let root = try content(&stack) { return root }
        }
    }

    /// Reads the innermost open element's content up to its next child element (nil: `pos`
    /// is at that child's `<`) or its end tag, closing elements as their end tags come;
    /// returns the root once it is closed.
    mutating func content(_ stack: inout [InkXMLElement]) throws(InputError) -> InkXMLElement? {
        while true {
            guard let open = stack.last else { return nil }
            guard pos < bytes.count else {
                throw fail(open.offset, "<\(open.name)> is not closed (expected </\(open.name)>)")
            }
            let b = bytes[pos]
            if b == UInt8(ascii: "&") {
                let at = pos
                for d in try entity() { stack[stack.count - 1].append(d, at: at) }
                continue
            }
            guard b == UInt8(ascii: "<") else {
                stack[stack.count - 1].append(b, at: pos)
                pos += 1
                continue
            }
            if peek("<!--") { try skip(until: "-->", what: "a comment"); continue }
            if peek("<![CDATA[") {
                let start = pos + 9
                try skip(until: "]]>", what: "a CDATA section")
                for i in start..<(pos - 3) { stack[stack.count - 1].append(bytes[i], at: i) }
                continue
            }
            if peek("<?") { try skip(until: "?>", what: "a processing instruction"); continue }
            guard peek("</") else { return nil }
            let at = pos
            pos += 2
            let endName = try name(what: "an element name after </")
            skipSpace()
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: ">") else { throw fail(pos, "expected > to end </\(endName)") }
            pos += 1
            let done = stack.removeLast()
            guard endName == done.name else {
                throw fail(at, "</\(endName)> does not close <\(done.name)> (opened at \(TextPositions(bytes).location(of: done.offset)))")
            }
            if stack.isEmpty { return done }
            stack[stack.count - 1].children.append(done)
        }
    }

    /// `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` `&#N;` `&#xH;` at `pos`, decoded to UTF-8.
    mutating func entity() throws(InputError) -> [UInt8] {
        let start = pos
        pos += 1
        var body: [UInt8] = []
        while pos < bytes.count, bytes[pos] != UInt8(ascii: ";"), body.count < 12 { body.append(bytes[pos]); pos += 1 }
        guard pos < bytes.count, bytes[pos] == UInt8(ascii: ";") else { throw fail(start, "'&' must start an entity such as &amp;") }
        pos += 1
        let text = String(decoding: body, as: UTF8.self)
        switch text {
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "amp": return [UInt8(ascii: "&")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            var code: UInt32?
            if text.hasPrefix("#x") { code = UInt32(text.dropFirst(2), radix: 16) }
            else if text.hasPrefix("#") { code = UInt32(text.dropFirst(), radix: 10) }
            guard let code, code != 0, let scalar = Unicode.Scalar(code) else {
                throw fail(start, "unknown entity &\(text); (only &lt; &gt; &amp; &quot; &apos; and &#N; are defined)")
            }
            return Array(String(Character(scalar)).utf8)
        }
    }
}

extension InkXMLElement {
    mutating func append(_ byte: UInt8, at offset: Int) {
        textOffsets.add(index: text.count, offset: offset)
        text.append(byte)
    }
}
