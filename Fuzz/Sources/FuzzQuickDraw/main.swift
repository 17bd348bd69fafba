// libFuzzer target: Quick, Draw! ndjson, every line through InkDrawing(quickDrawLine:); a
// drawing that reads is fitted to a canvas and its script must read back.
import FuzzSupport
import Stipple
#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    // Lines as a file's are split: at '\n', blank ones skipped.
    for (n, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
    where line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
        do {
            let drawing = try InkDrawing(quickDrawLine: Array(line.last == 0x0D ? line.dropLast() : line[...]),
                                         name: "fuzz.ndjson", line: n + 1)
            var options = InkOptions()
            options.size = (28, 28)
            let text = drawing.scriptJSON(options)
            do {
                _ = try Script.parse(bytes: Array(text.utf8), path: "fuzz.json", directory: "/")
            } catch {
                Fuzz.finding("the script made from this drawing does not read: \(error)")
            }
        } catch {
            Fuzz.answer(error)
        }
    }
    return 0
}

/// SwiftPM's entry point for this debug executable (see Fuzz.run).
@_cdecl("FuzzQuickDraw_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, fuzz)
}
