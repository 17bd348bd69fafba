#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files a script names: resolved against its folder, and, when missing, said where they
/// were looked for.
extension ScriptDecoder {
    /// A path string, resolved against the script's folder, naming an existing file.
    func existingFile(_ value: JSONValue, for what: String) throws(InputError) -> String {
        let text = try string(value, for: what)
        guard !text.isEmpty else { throw fail(value.location, "expected a file path for \(what), found an empty string") }
        guard !text.utf8.contains(0) else {
            throw fail(value.location, "the path \(InputError.quoted(text)) for \(what) holds a NUL character, which no file name can")
        }
        let resolved = FileSystem.resolve(text, against: directory)
        switch FileSystem.entry(at: resolved) {
        case .file: return resolved
        case .folder: throw fail(value.location, "\(what) \(resolved) is a folder, not a file")
        case .missing: throw fail(value.location, "\(what) not found: \(resolved)" + outsideFolderNote(text, resolved))
        }
    }

    /// For a path that climbs out of the script's folder ("../brushes/a.png"), which breaks
    /// when the folder is copied alone: where exactly the file was looked for.
    private func outsideFolderNote(_ text: String, _ resolved: String) -> String {
        guard !text.hasPrefix("/"), text.split(separator: "/").contains("..") else { return "" }
        var parts: [Substring] = []
        var absolute = resolved
        if !resolved.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: 4096)
            if getcwd(&buffer, buffer.count) != nil {
                absolute = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/" + resolved
            }
        }
        for part in absolute.split(separator: "/") {
            if part == "." { continue }
            if part == "..", !parts.isEmpty { parts.removeLast() } else { parts.append(part) }
        }
        return " (the script names \"\(text)\", outside its own folder, so it was looked for at /\(parts.joined(separator: "/")); "
            + "a copy of the script's folder needs that file there too, or a path inside the folder)"
    }
}
