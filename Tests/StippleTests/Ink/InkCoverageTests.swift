import Foundation
import XCTest
@testable import Stipple

/// How a dataset page's coverage comes back: drawn in white into one channel where the driver
/// has one, read as one byte a pixel, and each cell averaged down (and turned to ink on white
/// for PNG files) in one pass.
final class InkCoverageTests: XCTestCase {
    private static let renderer = Result { try Renderer() }

    /// Each output byte is its block's mean, rounded half up (255 minus it when inverted), from
    /// whichever byte of the pixel holds the coverage, with the page's rows bottom to top (GL's
    /// order) or top to bottom, whatever the factor: against the mean summed here pixel by pixel.
    func testACellIsItsBlocksMean() {
        var rng = SplitMix64(seed: 42)
        for (factor, width, height) in [(1, 37, 5), (2, 28, 3), (3, 11, 4), (4, 9, 2), (2, 4100, 1)] {
            for (bpp, coverage) in [(4, 3), (4, 0), (1, 0)] {
                let stride = width * factor + 7, rows = height * factor + 3
                let page = (0..<(stride * rows * bpp)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                let o = (x: 5, y: 2)
                for inverted in [false, true] {
                    let got = page.withUnsafeBufferPointer {
                        InkAtlas.averagePage($0, layout: (bpp, coverage), stride: stride, rows: rows, at: o, width: width,
                                             height: height, factor: factor, inverted: inverted)
                    }
                    var want = [UInt8](repeating: 0, count: width * height)
                    for y in 0..<height {
                        for x in 0..<width {
                            var sum = 0
                            for dy in 0..<factor {
                                for dx in 0..<factor {
                                    let row = rows - 1 - (o.y + y * factor + dy)  // bottom to top
                                    sum += Int(page[(row * stride + o.x + x * factor + dx) * bpp + coverage])
                                }
                            }
                            let mean = (sum + factor * factor / 2) / (factor * factor)
                            want[y * width + x] = UInt8(inverted ? 255 - mean : mean)
                        }
                    }
                    XCTAssertEqual(got, want, "factor \(factor), \(width)×\(height), \(bpp) bytes a pixel, inverted \(inverted)")
                }
            }
            // One byte a pixel, rows top to bottom (a drawing drawn alone).
            let stride = width * factor
            let image = (0..<(stride * height * factor)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let got = InkAtlas.average(image, stride: stride, at: (0, 0), width: width, height: height, factor: factor)
            let flipped = (0..<(height * factor)).reversed().flatMap { image[($0 * stride)..<(($0 + 1) * stride)] }
            let want = flipped.withUnsafeBufferPointer {
                InkAtlas.averagePage($0, layout: (1, 0), stride: stride, rows: height * factor, at: (0, 0), width: width,
                                     height: height, factor: factor)
            }
            XCTAssertEqual(got, want, "top to bottom, factor \(factor)")
        }
    }

    /// A coverage frame of white stamps, and of lines, keeps in its one channel exactly the
    /// alpha an RGBA frame of the same draw holds; on a driver with a one-channel target it
    /// reads back one byte a pixel.
    func testACoverageFrameHoldsTheAlphaOfAnRGBAFrame() async throws {
        let renderer = try InkCoverageTests.renderer.get()
        let canvas = Canvas(width: 301, height: 157, background: .color(.transparent))
        var rng = SplitMix64(seed: 9)
        let stamps = (0..<400).map { _ in
            SketchPoint(x: Float(rng.next() % 3000) / 10, y: Float(rng.next() % 1560) / 10, radius: Float(1 + rng.next() % 70) / 10,
                        red: 1, green: 1, blue: 1, alpha: Float(1 + rng.next() % 100) / 100)
        }
        let batch = StampBatch(brushKey: "soft", brush: .builtin(.softRound, size: 64), stamps: stamps)
        var lines: [Float] = []
        InkChords.emit([.init(x: 10, y: 20, radius: 3), .init(x: 150.5, y: 80.25, radius: 6), .init(x: 290, y: 30, radius: 1.5)],
                       dx: 0, dy: 0, to: &lines)
        let buffer = ReadbackBuffer(byteCount: canvas.width * canvas.height * 4)
        func read(_ layout: (bytesPerPixel: Int, coverage: Int)) -> [UInt8] {
            let px = buffer.bytes.bindMemory(to: UInt8.self)
            return (0..<(canvas.width * canvas.height)).map { px[$0 * layout.bytesPerPixel + layout.coverage] }
        }
        let oneChannel = renderer.info.glVersion.hasPrefix("OpenGL ES 3")
        for drawsLines in [false, true] {
            var frames: [[UInt8]] = []
            for coverage in [false, true] {
                if drawsLines {
                    try await renderer.drawInkLines(canvas: canvas, vertices: lines, coverage: coverage)
                } else {
                    try await renderer.drawImmediate(canvas: canvas, batches: [batch], coverage: coverage)
                }
                let layout = try await renderer.readFrame(into: buffer)
                XCTAssertEqual(layout.bytesPerPixel, coverage && oneChannel ? 1 : 4, "lines \(drawsLines)")
                frames.append(read(layout))
            }
            XCTAssertGreaterThan(frames[0].filter { $0 > 0 }.count, 1000, "lines \(drawsLines)")
            XCTAssertEqual(frames[0], frames[1], "lines \(drawsLines): the one channel is not the RGBA frame's alpha")
        }
        // An RGBA frame after a coverage frame of the same size is RGBA again.
        try await renderer.drawImmediate(canvas: canvas, batches: [batch])
        let image = try await renderer.readFrame()
        XCTAssertEqual(image.count, canvas.width * canvas.height * 4)
    }
}
