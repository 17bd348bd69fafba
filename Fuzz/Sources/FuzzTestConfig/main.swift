// libFuzzer target: a test folder's configuration, GoldenConfig.load(path:scriptNames:). The
// loader takes a path, so each input is written to a file in /dev/shm first. The case names
// are the fixtures' scripts, so the seed (Fixtures/scripts/stipple-test.json) is accepted.
import FuzzSupport
import Stipple
import StippleGolden

private let path = Fuzz.scratchPath("stipple-test.json")
private let names: Set<String> = [
    "periscope", "stroke-signature", "stroke-fast-scribble", "stroke-slow-curve", "stroke-rotating-brush",
    "demo", "tiny", "a",
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    Fuzz.write(data, size, to: path)
    defer { Fuzz.remove(path) }
    do {
        _ = try GoldenConfig.load(path: path, scriptNames: names)
    } catch {
        Fuzz.answer(error)
    }
    return 0
}

/// SwiftPM's entry point for this debug executable (see Fuzz.run).
@_cdecl("FuzzTestConfig_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, fuzz)
}
