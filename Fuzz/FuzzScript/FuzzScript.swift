// libFuzzer target: the JSON reader and the script decoder (issue 13). Any bytes must be
// decoded or refused with an InputError: never a crash, a hang or unbounded memory.
// Built only with STIPPLE_FUZZ=1 (see `make fuzz`).
import Stipple

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScript(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? Script.parse(bytes: bytes, path: "fuzz.json", directory: "/nonexistent-fuzz-folder")
    return 0
}

// SwiftPM names an executable's entry point <module>_main (and links main to it): hand
// the process to libFuzzer's driver there.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

@_cdecl("FuzzScript_main")
public func FuzzScriptMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments) { fuzzScript($0, $1) }
}
