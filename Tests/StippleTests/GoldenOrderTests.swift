import Foundation
import Stipple
import XCTest

/// A case's pixels never depend on the cases a renderer drew before it, on any driver:
/// every fixture, and brush-mode scripts of other sizes, rendered by `stipple test` in
/// several random orders (one renderer, each case after others of other sizes) equal the
/// same case rendered alone by a fresh process, byte for byte, as points and as quads, on
/// llvmpipe and on softpipe.
final class GoldenOrderTests: XCTestCase {
    struct RunFailure: Error { let text: String }

    /// Scripts with brush modes, of canvas sizes the fixtures do not have, whose passes read
    /// the canvas (blurs, shadows, edges) and so use the window position of each pixel.
    private static let modeScripts: [(String, String)] = [
        ("modes-tall", """
            {"canvas": {"width": 96, "height": 150, "background": "#c8b080"},
             "brushes": {"s": {"builtin": "soft-round", "size": 32}, "h": {"builtin": "hard-round", "size": 32}},
             "draw": [{"brush": "h", "stamps": [[20, 30, 12, 0, 0, 0.1, 0.5, 0.9, 1], [70, 120, 14, 0, 0, 0.9, 0.2, 0.1, 1]]},
                      {"brush": "s", "effect": "soften", "stamps": [[30, 40, 16, 0, 0, 1, 1, 1, 1], [60, 100, 16, 0, 0, 1, 1, 1, 1]]},
                      {"brush": "s", "shadow": {"offset": [4, 6], "blur": 3, "color": "#00000099"},
                       "stamps": [[48, 75, 10, 0, 0, 0.9, 0.9, 0.2, 1]]}]}
            """),
        ("modes-wide", """
            {"canvas": {"width": 230, "height": 70, "background": "#204060"},
             "brushes": {"s": {"builtin": "soft-round", "size": 32}},
             "draw": [{"brush": "s", "stamps": [[40, 35, 20, 0, 0, 1, 0.8, 0.2, 1], [190, 30, 20, 0, 0, 0.2, 0.9, 0.4, 1]]},
                      {"brush": "s", "blend": "multiply", "stamps": [[60, 35, 18, 0, 0, 0.5, 0.5, 1, 0.8]]},
                      {"brush": "s", "effect": "sharpen", "stamps": [[180, 35, 16, 0, 0, 1, 1, 1, 1]]},
                      {"brush": "s", "blend": "screen", "edges": {"tolerance": 40},
                       "stamps": [[120, 35, 14, 0, 0, 0.9, 0.1, 0.1, 1], [135, 40, 14, 0, 0, 0.9, 0.1, 0.1, 1]]}]}
            """),
        ("modes-blends", """
            {"canvas": {"width": 140, "height": 90, "background": "#e0d0c0"},
             "brushes": {"s": {"builtin": "soft-round", "size": 32}, "h": {"builtin": "hard-round", "size": 32}},
             "draw": [{"brush": "h", "stamps": [[30, 30, 16, 0, 0, 0.2, 0.3, 0.8, 1], [100, 60, 16, 0, 0, 0.8, 0.3, 0.2, 1]]},
                      {"brush": "s", "blend": "screen", "strokeOpacity": 0.6,
                       "stamps": [[40, 40, 14, 0, 0, 0.9, 0.9, 0.1, 1], [55, 45, 14, 0, 0, 0.9, 0.9, 0.1, 1]]},
                      {"brush": "h", "blend": "erase", "strokeOpacity": 0.5, "stamps": [[95, 55, 10, 0, 0, 1, 1, 1, 1]]}]}
            """),
    ]

    func testEveryCaseRendersTheSameInAnyOrderOnEveryDriver() throws {
        var drivers = ["llvmpipe"]
        let softpipe = try TestSupport.stipple(["info"], environment: ["GALLIUM_DRIVER": "softpipe"])
        if softpipe.status == 0 && softpipe.stdout.contains("softpipe") { drivers.append("softpipe") } else {
            print("GoldenOrderTests: softpipe is not available here (GALLIUM_DRIVER=softpipe); llvmpipe only")
        }
        let root = try TestSupport.temporaryDirectory(self, "golden-order")
        // The fixtures' layout, so that scripts find their backgrounds and brushes.
        for folder in ["backgrounds", "brushes"] {
            try FileManager.default.copyItem(at: TestSupport.fixtures.appendingPathComponent(folder),
                                             to: root.appendingPathComponent(folder))
        }
        let fixtures = TestSupport.fixtures.appendingPathComponent("scripts")
        let config = try JSONSerialization.jsonObject(with: Data(contentsOf: fixtures.appendingPathComponent("stipple-test.json")))
        let frames = ((config as? [String: Any])?["cases"] as? [String: Any]) ?? [:]
        var scripts: [String: Data] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) where file.hasSuffix(".json")
            && file != "stipple-test.json" {
            scripts[String(file.dropLast(5))] = try Data(contentsOf: fixtures.appendingPathComponent(file))
        }
        for (name, text) in GoldenOrderTests.modeScripts { scripts[name] = Data(text.utf8) }
        let sideFiles = try FileManager.default.contentsOfDirectory(atPath: fixtures.path)
            .filter { !$0.hasSuffix(".json") && !$0.hasSuffix(".py") }

        /// A folder of the scripts, each name prefixed so that `stipple test` (which runs
        /// cases sorted by name) runs them in `order`.
        func folder(_ label: String, order: [String]) throws -> URL {
            let dir = root.appendingPathComponent(label)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            for f in sideFiles {
                try FileManager.default.copyItem(at: fixtures.appendingPathComponent(f), to: dir.appendingPathComponent(f))
            }
            var cases: [String: Any] = [:]
            for (i, name) in order.enumerated() {
                let prefixed = String(format: "%02d-", i) + name
                try scripts[name]!.write(to: dir.appendingPathComponent(prefixed + ".json"))
                if let f = frames[name] { cases[prefixed] = f }
            }
            try JSONSerialization.data(withJSONObject: ["cases": cases]).write(to: dir.appendingPathComponent("stipple-test.json"))
            return dir
        }

        /// Records the cases of `dir` (those `filter` selects, or all) into a golden folder of
        /// their own with one renderer: the images by case name, order prefix taken off, or
        /// what the run printed when it failed.
        @Sendable func record(_ dir: URL, _ env: [String: String], _ primitive: String,
                              filter: String? = nil) -> Result<[String: Image], RunFailure> {
            let golden = dir.appendingPathComponent("golden-\(primitive)-\(filter ?? "all")")
            do {
                let run = try TestSupport.stipple(["test", dir.path, "--golden", golden.path, "--record", "all",
                                                   "--primitive", primitive, "--output", golden.appendingPathComponent("out").path]
                                                  + (filter.map { ["--filter", $0] } ?? []), environment: env)
                guard run.status == 0 else { return .failure(RunFailure(text: run.stdout + run.stderr)) }
                var images: [String: Image] = [:]
                for file in try FileManager.default.contentsOfDirectory(atPath: golden.path) where file.hasSuffix(".png") {
                    images[String(file.dropFirst(3).prefix { $0 != "." })] =
                        try PNGFile.read(path: golden.appendingPathComponent(file).path).image
                }
                return .success(images)
            } catch {
                return .failure(RunFailure(text: "\(error)"))
            }
        }

        var rng = SplitMix64(seed: 40)
        let names = scripts.keys.sorted()
        var compared = 0
        for driver in drivers {
            let env = ["GALLIUM_DRIVER": driver, "CI": ""]
            for primitive in ["points", "quads"] {
                // Alone: each case the first a fresh process draws.
                let alone = try folder("\(driver)-\(primitive)-alone", order: names)
                var filters: [String] = []
                for (i, name) in names.enumerated() {
                    let prefixed = String(format: "%02d-", i) + name
                    let listed = ((frames[name] as? [String: Any])?["frames"] as? [Int]) ?? []
                    // A script of several frames: one process a frame, each frame case alone too.
                    filters += listed.isEmpty ? [prefixed] : listed.map { prefixed + String(format: "@frame-%04d", $0) }
                }
                // Two processes at a time, each recording into its own golden folder.
                let runs = Locked<[Result<[String: Image], RunFailure>]>([])
                DispatchQueue.concurrentPerform(iterations: filters.count) { [filters] k in
                    let r = record(alone, env, primitive, filter: filters[k])
                    runs.update { $0.append(r) }
                }
                var single: [String: Image] = [:]
                for r in runs.value {
                    switch r {
                    case .success(let images): single.merge(images) { $1 }
                    case .failure(let f): XCTFail("\(driver) \(primitive): \(f.text)")
                    }
                }
                XCTAssertEqual(single.count, 26 + GoldenOrderTests.modeScripts.count, "\(driver) \(primitive): \(single.keys.sorted())")
                for round in 0..<2 {
                    var order = names
                    for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
                    let run = record(try folder("\(driver)-\(primitive)-order\(round)", order: order), env, primitive)
                    guard case .success(let mixed) = run else { XCTFail("\(run)"); continue }
                    XCTAssertEqual(Set(mixed.keys), Set(single.keys))
                    for (name, image) in mixed {
                        guard let expected = single[name] else { continue }
                        compared += 1
                        let script = String(name.prefix { $0 != "@" })
                        let before = order.prefix { $0 != script }.suffix(2)
                        XCTAssert(image == expected, "\(name) on \(driver) as \(primitive), after \(Array(before)), differs from the case alone")
                    }
                }
            }
        }
        // Each driver, both primitives, two orders, every case (26 fixture cases and the mode scripts).
        XCTAssertEqual(compared, drivers.count * 2 * 2 * (26 + GoldenOrderTests.modeScripts.count))
    }
}
