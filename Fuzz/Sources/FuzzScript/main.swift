// libFuzzer target: the JSON parser and the script decoder, Script.parse(bytes:path:directory:).
// Relative paths in a script (brushes, backgrounds, `.sketchpoints` stamps) resolve against
// Fixtures/scripts, so the fixtures' own files are found; the decoder only reads.
import FuzzSupport
import Stipple

private let fixtures: String = {
    // Fuzz/Sources/FuzzScript/main.swift → the repository's Fixtures/scripts.
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(4)
    return parts.joined(separator: "/") + "/Fixtures/scripts"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Fuzz.bytes(data, size)
    do {
        var script = try Script.parse(bytes: bytes, path: "fuzz.json", directory: fixtures)
        // A timelapse of it at a speed the input picks (its length), from the least to the
        // most a double holds: every touch and session time is checked before it is a frame.
        let speeds = [5e-324, 1e-300, 1e-6, 2e-6, 0.5, 1, 20, 1e300, Double.greatestFiniteMagnitude]
        do { try script.play(atSpeed: speeds[bytes.count % speeds.count]) } catch { Fuzz.answer(error) }
    } catch {
        Fuzz.answer(error)
        // A script without a canvas is what a bake reads (the video gives the size).
        do {
            _ = try Script.parse(bytes: bytes, path: "fuzz.json", directory: fixtures,
                                 defaultCanvas: CanvasSpec(width: 64, height: 48))
        } catch {
            Fuzz.answer(error)
        }
    }
    return 0
}

/// SwiftPM's entry point for this debug executable (see Fuzz.run).
@_cdecl("FuzzScript_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, fuzz)
}
