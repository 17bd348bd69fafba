// libFuzzer target: Quick, Draw! ndjson, every line through QuickDrawReader.drawing; a
// drawing that reads is fitted to a canvas and its script must read back.
import FuzzSupport
import Stipple
#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    for line in QuickDrawReader.lines(bytes) {
        do {
            let drawing = try QuickDrawReader.drawing(bytes, line: line, file: "fuzz.ndjson")
            try drawing.check(file: "fuzz.ndjson")
            var options = InkOptions()
            options.size = (28, 28)
            let text = InkScriptWriter.json(InkPlan.layout(drawing, options))
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
