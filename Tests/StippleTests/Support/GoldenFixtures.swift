import Foundation
import XCTest
@testable import Stipple
@testable import StippleGolden

/// The fixture scripts (Fixtures/scripts/*.json) and their goldens
/// (Fixtures/golden/NAME.DRIVER.PRIMITIVE.png, recorded with `make goldens`).
enum GoldenFixtures {
    static let scriptsFolder = TestSupport.fixtures.appendingPathComponent("scripts")
    static let goldenFolder = TestSupport.fixtures.appendingPathComponent("golden")
    /// Where a failing golden check leaves expected.png, actual.png and diff.png.
    static let failuresFolder = TestSupport.packageRoot.appendingPathComponent(".build/golden-failures")

    struct Fixture: Sendable {
        var name: String
        var script: URL
    }

    /// Every Fixtures/scripts/*.json, by name.
    static func all() throws -> [Fixture] {
        let files = try FileManager.default.contentsOfDirectory(atPath: scriptsFolder.path)
        let fixtures = files.filter { $0.hasSuffix(".json") && $0 != GoldenConfig.fileName }.sorted().map {
            Fixture(name: String($0.dropLast(5)), script: scriptsFolder.appendingPathComponent($0))
        }
        if fixtures.isEmpty { throw RenderError("no fixture scripts in \(scriptsFolder.path)") }
        return fixtures
    }

    static func golden(_ name: String, driver: String = "llvmpipe", primitive: Primitive = .points) -> URL {
        goldenFolder.appendingPathComponent("\(name).\(driver).\(primitive.rawValue).png")
    }

    /// The scene of a fixture and the frame-0 batches, as `stipple render` makes them.
    static func load(_ fixture: Fixture) throws -> (Scene, [StampBatch]) {
        let scene = try Scene(script: try Script.load(path: fixture.script.path))
        return (scene, scene.batches(atFrame: 0))
    }

    static func render(_ fixture: Fixture, on renderer: Renderer, primitive: Primitive = .points) async throws -> Image {
        let (scene, batches) = try load(fixture)
        return try await renderer.render(canvas: scene.canvas, batches: batches,
                                         settings: RenderSettings(effects: scene.effects, primitive: primitive))
    }

    /// The short driver name of a GL_RENDERER string ("llvmpipe (LLVM 15.0.6, 256 bits)" → "llvmpipe").
    static func driverName(_ glRenderer: String) -> String {
        for known in ["llvmpipe", "softpipe", "zink"] where glRenderer.contains(known) { return known }
        return glRenderer
    }

    /// Writes expected.png, actual.png and diff.png into .build/golden-failures/NAME/ and
    /// returns a message naming them with the comparison's summary.
    static func keepFailure(_ name: String, expected: Image, actual: Image, result: ImageComparison,
                            k: Int, allowed: Int, what: String) -> String {
        let dir = failuresFolder.appendingPathComponent(name)
        var written: [String] = []
        do {
            try? FileManager.default.removeItem(at: dir)  // no stale images from an earlier run
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for (file, image) in [("expected.png", expected), ("actual.png", actual),
                                  ("diff.png", DiffImage.make(expected: expected, actual: actual,
                                                              maxChannelDifference: k))] {
                let path = dir.appendingPathComponent(file).path
                try PNGFile.write(image, to: path)
                written.append(path)
            }
        } catch {
            written.append("(could not write the images: \(error))")
        }
        return "\(name): \(what): \(result.summary); allowed \(allowed) pixels over \(k)\n    "
            + written.joined(separator: "\n    ")
    }
}
