import Foundation
import Stipple
import StippleGolden
import StippleTesting
import Testing

/// Golden tests as a user of Stipple writes them. The environment steers what changes
/// between the runs Stipple's own suite makes of this package:
/// CONSUMER_SHIFT (pixels every stamp moves), CONSUMER_DUPLICATE=1 (two calls share a name).
enum Draw {
    static let env = ProcessInfo.processInfo.environment
    static let shift = Float(env["CONSUMER_SHIFT"] ?? "0") ?? 0
    static let canvas = Canvas(width: 32, height: 24, background: .color(.transparent))

    static func dot(_ x: Float, radius: Float = 5, green: Float = 0.5) -> [SketchPoint] {
        [SketchPoint(x: x + shift, y: 12, radius: radius, age: 0, dissolveAngle: 0,
                     red: 0.9, green: green, blue: 0.2, alpha: 1)]
    }
}

@Test func twoCalls() async {
    await assertGolden(stamps: Draw.dot(8), canvas: Draw.canvas)   // twoCalls.1
    await assertGolden(stamps: Draw.dot(20), canvas: Draw.canvas)  // twoCalls.2
}

@Test(arguments: [4, 7]) func sizes(radius: Int) async {
    await assertGolden(stamps: Draw.dot(16, radius: Float(radius)), canvas: Draw.canvas)  // sizes-4.1, sizes-7.1
}

@Test func look() async {
    await assertGolden(stamps: Draw.dot(12, green: 0.3), canvas: Draw.canvas, named: "look")
}

@Test func loose() async {
    // K 60 and 20 pixels where the image needs far less: listed as looser than needed.
    await assertGolden(stamps: Draw.dot(10), canvas: Draw.canvas, named: "loose",
                       tolerance: GoldenTolerance(maxChannelDifference: 60, maxPixels: 20))
}

@Test func flakyCase() async {
    // Made nondeterministic by STIPPLE_TEST_NONDETERMINISTIC=flaky-case (a debug-build hook).
    await assertGolden(stamps: Draw.dot(14), canvas: Draw.canvas, named: "flaky-case")
}

@Test func duplicate() async {
    guard Draw.env["CONSUMER_DUPLICATE"] == "1" else { return }
    await assertGolden(stamps: Draw.dot(8), canvas: Draw.canvas, named: "same", record: .missing)
    // Same name: refused, naming both lines; `.all` would otherwise overwrite the first.
    await assertGolden(stamps: Draw.dot(20), canvas: Draw.canvas, named: "same", record: .all)
}
