import Foundation
import SnapshotTesting
import Stipple
import StippleGolden
import StippleSnapshotTesting
import Testing

/// Record, match and fail, as a swift-snapshot-testing user meets them, each in a snapshot
/// folder of its own under the temporary folder.
struct StippleSnapshottingTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("stipple-snapshot-tests-\(UUID().uuidString)")

    /// A 16×8 image: a red square at `x` on grey.
    static func picture(squareAt x: Int, red: UInt8 = 220) -> Image {
        var pixels = [UInt8](repeating: 0, count: 16 * 8 * 4)
        for y in 0..<8 {
            for px in 0..<16 {
                let inside = px >= x && px < x + 4 && y >= 2 && y < 6
                let rgba: [UInt8] = inside ? [red, 30, 30, 255] : [90, 90, 90, 255]
                pixels.replaceSubrange((y * 16 + px) * 4 ..< (y * 16 + px) * 4 + 4, with: rgba)
            }
        }
        return Image(width: 16, height: 8, pixels: pixels)
    }

    func verify(_ image: Image, as strategy: Snapshotting<Image, Image> = .stipple,
                record: SnapshotTestingConfiguration.Record, named name: String? = "square") -> String? {
        verifySnapshot(of: image, as: strategy, named: name, record: record, snapshotDirectory: folder.path,
                       testName: "picture")
    }

    func snapshotFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func recordsAMissingSnapshotAsPNGThenMatchesIt() throws {
        let image = Self.picture(squareAt: 3)
        let first = try #require(verify(image, record: .missing))
        #expect(first.contains("No reference was found on disk. Automatically recorded snapshot"))
        #expect(snapshotFiles() == ["picture.square.png"])
        let stored = try Image(contentsOfPNG: folder.appendingPathComponent("picture.square.png").path)
        #expect(stored == image, "the snapshot is the image, losslessly, as PNG")
        #expect(verify(image, record: .missing) == nil, "the same image matches its snapshot")
    }

    @Test func unnamedCallsAreCountedInTheirTest() {
        _ = verify(Self.picture(squareAt: 3), record: .missing, named: nil)
        _ = verify(Self.picture(squareAt: 6), record: .missing, named: nil)
        #expect(snapshotFiles() == ["picture.1.png", "picture.2.png"])
    }

    @Test func failsWithStipplesFiguresAndTheDiffImage() throws {
        _ = verify(Self.picture(squareAt: 3), record: .all)
        let failure = try #require(verify(Self.picture(squareAt: 5), record: .missing))
        // Columns 3–4 lose the square, 7–8 gain it: 4 rows of 4 pixels, max difference 220 − 90,
        // first at the square's old top-left corner.
        #expect(failure.contains("max channel diff 130 at (3, 2), 16 of 128 pixels over 0 (12.500%)"), "\(failure)")
        #expect(failure.contains("allowed 0 over (K 0, P 0)"), "\(failure)")
        let diffLine = try #require(failure.split(separator: "\n").first { $0.hasPrefix("diff image: ") })
        let diff = try Image(contentsOfPNG: String(diffLine.dropFirst("diff image: ".count)))
        #expect(diff.width == 16 && diff.height == 8)
        #expect(snapshotFiles() == ["picture.square.png"])
        let kept = try Image(contentsOfPNG: folder.appendingPathComponent("picture.square.png").path)
        #expect(kept == Self.picture(squareAt: 3), "a failure leaves the reference as it was")
    }

    @Test func passesWithinATolerance() {
        _ = verify(Self.picture(squareAt: 3, red: 220), record: .all)
        let slightly = Self.picture(squareAt: 3, red: 223)
        #expect(verify(slightly, record: .never) != nil, "exact by default")
        let loose = GoldenTolerance(maxChannelDifference: 3)
        #expect(verify(slightly, as: .stipple(tolerance: loose), record: .never) == nil)
        let fewPixels = GoldenTolerance(maxPixels: 15)
        let message = verify(slightly, as: .stipple(tolerance: fewPixels), record: .never)
        #expect(message?.contains("16 of 128 pixels over 0") == true, "\(message ?? "passed")")
    }

    @Test func recordModes() throws {
        let never = try #require(verify(Self.picture(squareAt: 3), record: .never))
        #expect(never.contains("New snapshot was not recorded because recording is disabled"))
        #expect(snapshotFiles().isEmpty)
        _ = verify(Self.picture(squareAt: 3), record: .all)
        let all = try #require(verify(Self.picture(squareAt: 9), record: .all))
        #expect(all.contains("Record mode is on"))
        let rewritten = try Image(contentsOfPNG: folder.appendingPathComponent("picture.square.png").path)
        #expect(rewritten == Self.picture(squareAt: 9))
        let failed = try #require(verify(Self.picture(squareAt: 1), record: .failed))
        #expect(failed.contains("max channel diff"), "\(failed)")
        let refreshed = try Image(contentsOfPNG: folder.appendingPathComponent("picture.square.png").path)
        #expect(refreshed == Self.picture(squareAt: 1), "record .failed rewrites a failing snapshot")
    }
}
