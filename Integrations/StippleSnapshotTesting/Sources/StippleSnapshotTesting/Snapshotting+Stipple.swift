import Foundation
import SnapshotTesting
import Stipple
import StippleGolden

extension Snapshotting where Value == Image, Format == Image {
    /// An image stored as a PNG snapshot and compared exactly with Stipple's comparison.
    ///
    /// ```swift
    /// let image = try await renderer.render(scene, frame: 0)
    /// assertSnapshot(of: image, as: .stipple)
    /// ```
    public static var stipple: Snapshotting { .stipple(tolerance: .exact) }

    /// As `.stipple`, passing while the images stay within `tolerance` (K, P, a perceptual
    /// threshold, ignored regions, a mask: everything `stipple test` accepts).
    ///
    /// ```swift
    /// assertSnapshot(of: image, as: .stipple(tolerance: GoldenTolerance(maxChannelDifference: 2, maxPixels: 10)))
    /// ```
    public static func stipple(tolerance: GoldenTolerance) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .stipple(tolerance: tolerance))
    }
}

extension Snapshotting where Value == URL, Format == Image {
    /// A script file rendered at `frame` (see `Scene.load(path:)`), snapshotted as `.stipple`.
    /// Rendering uses one renderer for the whole test process, opened on first use
    /// (`STIPPLE_EGL_PLATFORM` picks the EGL platform, as it does for the `stipple` command).
    /// A script that cannot be read or drawn fails the test with the script's error, every
    /// time, and nothing is recorded.
    ///
    /// ```swift
    /// assertSnapshot(of: URL(fileURLWithPath: "Scripts/ages.json"), as: .stippleScript(frame: 55))
    /// ```
    public static func stippleScript(frame: Int = 0, primitive: Primitive = .points,
                                     tolerance: GoldenTolerance = .exact) -> Snapshotting {
        Snapshotting<Image, Image>.stipple(tolerance: tolerance).asyncPullback { (url: URL) in
            ScriptSnapshot.render(path: url.path, frame: frame, primitive: primitive)
        }
    }
}
