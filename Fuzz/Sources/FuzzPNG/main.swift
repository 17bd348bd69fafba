// libFuzzer target: the PNG reader (libpng through the C shim), PNGFile.read(path:). The
// reader takes a path (it opens, fstats and limits the file itself), so each input is
// written to a file in /dev/shm first. A decoded image must hold width × height × 4 bytes.
import FuzzSupport
import Stipple
#if canImport(Glibc)
import Glibc
#endif

private let path = Fuzz.scratchPath("input.png")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    Fuzz.write(data, size, to: path)
    defer { Fuzz.remove(path) }
    do {
        let decoded = try PNGFile.read(path: path)
        let image = decoded.image
        if image.width < 1 || image.height < 1 || image.pixels.count != image.width * image.height * 4 {
            Fuzz.finding("decoded \(image.width)×\(image.height) with \(image.pixels.count) bytes")
        }
    } catch {
        Fuzz.answer(error)
    }
    return 0
}

/// SwiftPM's entry point for this debug executable (see Fuzz.run).
@_cdecl("FuzzPNG_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, fuzz)
}
