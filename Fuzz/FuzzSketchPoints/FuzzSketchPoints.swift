// libFuzzer target: the .sketchpoints decoder (issue 13). Built only with STIPPLE_FUZZ=1.
import Stipple

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSketchPoints(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? SketchPointsFile.decode(bytes, path: "fuzz.sketchpoints")
    return 0
}

// SwiftPM names an executable's entry point <module>_main (and links main to it): hand
// the process to libFuzzer's driver there.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzSketchPoints_main")
public func FuzzSketchPointsMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { fuzzSketchPoints($0, $1) }
}
