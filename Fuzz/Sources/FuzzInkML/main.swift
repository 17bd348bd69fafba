// libFuzzer target: InkML, InkDrawing(inkML:name:); ink that reads is fitted to a canvas
// and its script must read back (a script made from ink that the decoder refuses is a finding).
import FuzzSupport
import Stipple
#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    do {
        let drawing = try InkDrawing(inkML: bytes, name: "fuzz.inkml")
        var options = InkOptions()
        options.size = (64, 48)
        let text = drawing.scriptJSON(options)
        do {
            _ = try Script.parse(bytes: Array(text.utf8), path: "fuzz.json", directory: "/")
        } catch {
            Fuzz.finding("the script made from this ink does not read: \(error)")
        }
    } catch {
        Fuzz.answer(error)
    }
    return 0
}

/// SwiftPM's entry point for this debug executable (see Fuzz.run).
@_cdecl("FuzzInkML_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, fuzz)
}
