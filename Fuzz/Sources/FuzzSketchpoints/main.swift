// libFuzzer target: `.sketchpoints` records, SketchPointsFile.decode(_:path:); a decoded file
// must encode back to the same bytes.
import FuzzSupport
import Stipple
#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    do {
        let points = try SketchPointsFile.decode(bytes, path: "fuzz.sketchpoints")
        if SketchPointsFile.encode(points) != bytes {
            Fuzz.finding("decode then encode does not give the input back")
        }
    } catch {
        Fuzz.answer(error)
    }
    return 0
}

/// SwiftPM's entry point for this debug executable (see Fuzz.run).
@_cdecl("FuzzSketchpoints_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, fuzz)
}
