import CStipple
import Foundation
import XCTest
@testable import Stipple

/// JPEG and WebP tiles: the same names (with their extension), sizes and descriptor as PNG
/// tiles, pixels close to the exact ones, and parts joined equal to one run, byte for byte.
final class TileFormatTests: XCTestCase {
    /// Width and height from a JPEG's first start-of-frame marker, or a WebP's VP8 / VP8L header.
    static func size(of data: [UInt8]) -> (Int, Int)? {
        if data.starts(with: [0xFF, 0xD8]) {
            var i = 2
            while i + 9 < data.count {
                guard data[i] == 0xFF else { return nil }
                let marker = data[i + 1], length = Int(data[i + 2]) << 8 | Int(data[i + 3])
                if (0xC0...0xC2).contains(marker) {
                    return (Int(data[i + 7]) << 8 | Int(data[i + 8]), Int(data[i + 5]) << 8 | Int(data[i + 6]))
                }
                i += 2 + length
            }
            return nil
        }
        guard data.count > 30, Array(data[0..<4]) == Array("RIFF".utf8), Array(data[8..<12]) == Array("WEBP".utf8) else { return nil }
        let chunk = String(decoding: data[12..<16], as: UTF8.self)
        if chunk == "VP8 " { return (Int(data[26]) | (Int(data[27]) & 0x3F) << 8, Int(data[28]) | (Int(data[29]) & 0x3F) << 8) }
        if chunk == "VP8L" {
            let b = data[21..<25].map(Int.init)
            return (1 + (b[0] | (b[1] & 0x3F) << 8), 1 + (b[1] >> 6 | b[2] << 2 | (b[3] & 0x0F) << 10))
        }
        if chunk == "VP8X" {
            return (1 + (Int(data[24]) | Int(data[25]) << 8 | Int(data[26]) << 16), 1 + (Int(data[27]) | Int(data[28]) << 8 | Int(data[29]) << 16))
        }
        return nil
    }

    func testJPEGAndWebPTilesAreThePNGPyramidsTiles() async throws {
        var err = [CChar](repeating: 0, count: 256)
        let r = try Renderer()
        let dir = try TestSupport.temporaryDirectory(self, "tile-formats")
        let scene = try Scene(script: Script.load(path: TestSupport.fixtures.appendingPathComponent("scripts/demo.json").path))
        let png = try await r.writePyramid(scene, frame: 30, to: dir.appendingPathComponent("png").path)
        let pngTiles = try FileManager.default.subpathsOfDirectory(atPath: png.tiles).filter { $0.hasSuffix(".png") }.sorted()
        for format in [PyramidOptions.TileFormat.jpeg, .webp] {
            let available = format == .jpeg ? stp_jpeg_available(&err, err.count) : stp_webp_available(&err, err.count)
            guard available == 1 else { print("skipped \(format): \(String(cBuffer: err))"); continue }
            let options = PyramidOptions(format: format, quality: 92)
            let path = dir.appendingPathComponent(format.rawValue).path
            let summary = try await r.writePyramid(scene, frame: 30, to: path, options: options)
            let tiles = try FileManager.default.subpathsOfDirectory(atPath: summary.tiles).filter { $0.hasSuffix("." + format.rawValue) }.sorted()
            XCTAssertEqual(tiles, pngTiles.map { String($0.dropLast(3)) + format.rawValue })
            for name in pngTiles {
                let exact = try PNGFile.read(path: png.tiles + "/" + name).image
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: summary.tiles + "/" + String(name.dropLast(3)) + format.rawValue)))
                let size = Self.size(of: bytes)
                XCTAssertEqual(size.map { [$0.0, $0.1] }, [exact.width, exact.height], "\(format) \(name)")
            }
            // Decoded by ffmpeg, the full-size level's first tile is close to the exact one
            // (JPEG: over white).
            if let ffmpeg = TestSupport.which("ffmpeg") {
                let name = pngTiles.filter { $0.hasSuffix("0_0.png") }.max { $0.count < $1.count }!
                let decoded = dir.appendingPathComponent("\(format.rawValue)-decoded.png").path
                let run = try TestSupport.run(ffmpeg, ["-v", "error", "-y", "-i", summary.tiles + "/" + String(name.dropLast(3)) + format.rawValue,
                                                       "-pix_fmt", "rgba", decoded])
                XCTAssertEqual(run.status, 0, run.stderr)
                let got = try PNGFile.read(path: decoded).image, exact = try PNGFile.read(path: png.tiles + "/" + name).image
                var total = 0
                for i in stride(from: 0, to: exact.pixels.count, by: 4) {
                    let a = Int(exact.pixels[i + 3])
                    for c in 0..<3 {
                        let want = format == .jpeg ? (Int(exact.pixels[i + c]) * a + 255 * (255 - a) + 127) / 255 : Int(exact.pixels[i + c])
                        total += abs(want - Int(got.pixels[i + c]))
                    }
                }
                XCTAssertLessThan(Double(total) / Double(exact.width * exact.height * 3), 3, "\(format): mean difference")
            }
            let dzi = try String(contentsOfFile: summary.descriptor, encoding: .utf8)
            XCTAssertTrue(dzi.contains("Format=\"\(format.rawValue)\""), dzi)
            // In two parts, joined: the same bytes.
            let parts = dir.appendingPathComponent("\(format.rawValue)-parts").path
            for k in 1...2 { _ = try await r.writePyramidPart(scene, frame: 30, to: parts, part: k, of: 2, options: options) }
            let joined = try Pyramid.join(parts)
            for name in tiles {
                XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: joined.tiles + "/" + name)),
                               try Data(contentsOf: URL(fileURLWithPath: summary.tiles + "/" + name)), name)
            }
        }
    }
}
