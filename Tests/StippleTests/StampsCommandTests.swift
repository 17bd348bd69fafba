import XCTest
@testable import Stipple

/// `stipple stamps --frame N`: the live buffer at frame N, checked against values worked
/// out by hand from docs/reference.md §3, §6 and §9.
final class StampsCommandTests: XCTestCase {
    /// A straight stroke (smoothing 0) from x = 10 to x = 110 over one second at 30 fps, radius
    /// 10, spacing 0.5: a stamp every 0.5 × 20 = 10 px, at x = 10, 20, …, 110, the one at x born
    /// at frame floor((x − 10) / 100 × 30) = 0, 3, 6, …, 30. maxAge 20.
    let script = """
        { "canvas": { "width": 128, "height": 64 }, "fps": 30, "maxAge": 20, "seed": 5,
          "brushes": { "dot": { "builtin": "hard-round", "size": 16 } },
          "draw": [ { "brush": "dot", "color": "#ff0000", "radius": 10, "spacing": 0.5, "smoothing": 0,
                      "points": [ { "x": 10, "y": 50, "t": 0 }, { "x": 110, "y": 50, "t": 1 } ] },
                    { "brush": "dot", "stamps": [[64, 10, 3, -4, 0, 0, 0, 1, 1]] } ] }
        """

    func stamps(atFrame n: Int) throws -> [SketchPoint] {
        let dir = try TestSupport.temporaryDirectory(self)
        let path = dir.appendingPathComponent("line.json").path
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("live.sketchpoints").path
        let run = try TestSupport.stipple(["stamps", path, "--frame", "\(n)", "-o", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        return try SketchPointsFile.read(path: out)
    }

    func testFrame12() throws {
        // Born by frame 12: x = 10…50 (frames 0, 3, 6, 9, 12), ages 12, 9, 6, 3, 0; the inline
        // stamp (age −4 at frame 0) is 8 frames old and comes after the stroke (draw order).
        let live = try stamps(atFrame: 12)
        XCTAssertEqual(live.count, 6)
        let expected: [(x: Float, age: Float)] = [(10, 12), (20, 9), (30, 6), (40, 3), (50, 0)]
        for (p, e) in zip(live, expected) {
            XCTAssertEqual(p.x, e.x, accuracy: 1e-3)
            XCTAssertEqual(p.y, 50, accuracy: 1e-3)
            XCTAssertEqual(p.age, e.age)
            XCTAssertEqual(p.radius, 10, accuracy: 1e-4)
            XCTAssertEqual([p.red, p.green, p.blue, p.alpha], [1, 0, 0, 1])
        }
        XCTAssertEqual(live[5], SketchPoint(x: 64, y: 10, radius: 3, age: 8, dissolveAngle: 0,
                                            red: 0, green: 0, blue: 1, alpha: 1))
    }

    func testFrame25DropsTheDeadAndTheUnborn() throws {
        // Born by frame 25: frames 0…24 (x = 10…90); dead at age ≥ 20: frames 0 and 3 (ages 25, 22).
        // Left: x = 30…90, ages 19, 16, 13, 10, 7, 4, 1. The inline stamp is 29 frames old: dead.
        let live = try stamps(atFrame: 25)
        XCTAssertEqual(live.map(\.age), [19, 16, 13, 10, 7, 4, 1])
        for (p, x) in zip(live, stride(from: Float(30), through: 90, by: 10)) {
            XCTAssertEqual(p.x, x, accuracy: 1e-3)
        }
    }

    func testFrame0AndTheSeedMakesDissolveAnglesRepeatable() throws {
        let a = try stamps(atFrame: 0)
        XCTAssertEqual(a.count, 1, "only the stroke's first stamp is born at frame 0 (the inline one is born at 4)")
        let b = try stamps(atFrame: 12)
        XCTAssertEqual(a[0].dissolveAngle, b[0].dissolveAngle)
        XCTAssertEqual(Set(b.prefix(5).map(\.dissolveAngle)).count, 5, "each stamp draws its own angle")
    }
}
