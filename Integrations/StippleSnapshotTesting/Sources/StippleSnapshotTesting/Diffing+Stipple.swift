import Foundation
import SnapshotTesting
import Stipple
import StippleGolden

extension Diffing where Value == Image {
    /// Stipple's comparison as a snapshot diff: PNG on disk; a failure's message gives the
    /// figures (`max channel diff 230 at (12, 19), 80 of 3072 pixels over 0 (2.604%);
    /// allowed 0 over (K 0, P 0)`) and the path of the diff image, which is also attached
    /// (to the Swift Testing test that failed, or to the XCTest activity under Xcode).
    public static func stipple(tolerance: GoldenTolerance = .exact) -> Diffing {
        .diff(
            toData: { image in Data((try? image.pngData()) ?? []) },
            fromData: { data in SnapshotPNG.decode(data) },
            diffV2: { expected, actual in
                // A canvas is at least 1×1: an empty image is a reference that is no PNG (or an
                // image that could not be encoded), never a match, even for another empty one.
                if expected.width == 0 || expected.height == 0 {
                    return ("Stipple: the reference snapshot is not a PNG Stipple reads (empty or damaged); "
                            + "delete it to record it again", [])
                }
                if actual.width == 0 || actual.height == 0 {
                    return ("Stipple: the snapshot is an empty \(actual.width)×\(actual.height) image", [])
                }
                let mask: Image?
                do {
                    mask = try tolerance.loadMask(relativeTo: nil)
                } catch {
                    return ("Stipple: the tolerance's mask cannot be used: \(error)", [])
                }
                let (comparison, diff) = ImageComparison.compareWithDiff(expected: expected, actual: actual,
                                                                          tolerance: tolerance, mask: mask)
                if comparison.passes { return nil }
                let png = Data((try? diff.pngData()) ?? [])
                let written = SnapshotPNG.writeDiff(png)
                SnapshotPNG.attach(png, named: "diff.png")
                var message = "Stipple: the image differs beyond the tolerance: \(comparison.summaryWithTolerance)"
                if let written { message += "\ndiff image: \(written)" }
                return (message, [.data(png, name: "diff.png")])
            }
        )
    }
}
