// libFuzzer target: the PNG reader (libpng through the C shim), PNGFile.read(path:). The
// reader takes a path (it opens, fstats and limits the file itself), so each input is
// written to a file in /dev/shm first. A decoded image must hold width × height × 4 bytes.
// Every decoded image (and, for an input that is not a PNG, its bytes taken as pixels) is
// then encoded by Stipple's own encoder at levels 0, 1 and 3 and read back: the same pixels.
import FuzzSupport
import Stipple
#if canImport(Glibc)
import Glibc
#endif

private let path = Fuzz.scratchPath("input.png")
private let again = Fuzz.scratchPath("again.png")

/// Stipple's own encoder (the fast profile at levels 0, 1, 3; segments, its deflate coder):
/// `image` encoded, written and read back by libpng is `image`.
private func roundTrip(_ image: Image) {
    for level: Int32 in [0, 1, 3] {
        do {
            let png = try PNGFile.encode(image, compression: level)
            png.withUnsafeBufferPointer { Fuzz.write($0.baseAddress!, $0.count, to: again) }
            defer { Fuzz.remove(again) }
            let back = try PNGFile.read(path: again).image
            if back != image { Fuzz.finding("a \(image.width)×\(image.height) image at level \(level) reads back other pixels") }
        } catch {
            Fuzz.finding("a \(image.width)×\(image.height) image at level \(level) does not encode and read back: \(error)")
        }
    }
}

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
        if image.pixels.count <= 1 << 22 { roundTrip(image) }
    } catch {
        Fuzz.answer(error)
        // Not a PNG: its bytes as the pixels of an image 1 to 64 pixels wide.
        if size >= 5 {
            let width = 1 + Int(data[0]) % 64
            let height = max(1, (size - 1) / (width * 4))
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            for i in 0..<min(pixels.count, size - 1) { pixels[i] = data[1 + i] }
            roundTrip(Image(width: width, height: height, pixels: pixels))
        }
    }
    return 0
}

/// SwiftPM's entry point for this debug executable (see Fuzz.run).
@_cdecl("FuzzPNG_main")
public func entry(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    Fuzz.run(argc, argv, fuzz)
}
