import XCTest
@testable import Stipple

enum TileTestSupport {
    /// Tiles equal one pass byte for byte on llvmpipe, whose rasteriser places stamps the same
    /// wherever the target sits; Mesa's softpipe can differ by a unit or two in some pixels.
    static func requireTranslationInvariantDriver(_ renderer: Renderer) throws {
        try XCTSkipUnless(renderer.info.glRenderer.contains("llvmpipe"),
                          "tiles equal one pass byte for byte on llvmpipe; this is \(renderer.info.glRenderer)")
    }
}
