import Foundation
import Stipple
import StippleGolden

/// Golden-image assertions for tests, from XCTest or Swift Testing.
///
/// The golden lives next to the test file, in `__Goldens__/NAME.DRIVER.PRIMITIVE.png`, and
/// follows the rules of `stipple test` (see `GoldenCheck`): recorded on the first run (not in
/// CI, where `CI=true` makes a missing golden fail), compared exactly on the driver that made
/// it unless a tolerance is given, another driver's quads golden compared with `.crossDriver`.
/// A failure writes expected.png, actual.png and diff.png (under `$STIPPLE_TEST_OUTPUT`, or
/// the temporary folder's `stipple-test/`) and names them in the message.
/// `record: true`, or `STIPPLE_RECORD=1` in the environment, rewrites goldens that no longer match.
///
/// ```swift
/// await assertGolden(script: "Fixtures/ages.json", frame: 55, primitive: .quads)
/// await assertGolden(stamps: points, canvas: Canvas(width: 64, height: 48), named: "two-dots")
/// ```
@discardableResult
public func assertGolden(script path: String, named name: String? = nil, frame: Int = 0, primitive: Primitive = .points,
                         tolerance: GoldenTolerance? = nil, ignore: [GoldenTolerance.Region] = [], record: Bool = false,
                         fileID: String = #fileID, file: StaticString = #filePath, function: String = #function,
                         line: UInt = #line, column: UInt = #column) async -> GoldenCaseResult? {
    let at = GoldenAssertion.Site(fileID: fileID, file: file, function: function, line: line, column: column)
    return await GoldenAssertion.run(name: name, frame: frame, primitive: primitive, tolerance: tolerance, ignore: ignore,
                                     record: record, scriptPath: path, at: at) { renderer in
        try await renderer.render(try Scene.load(path: path), frame: frame, primitive: primitive)
    }
}

/// As above, for stamps drawn with one brush over `canvas`, aged by `frame` frames.
@discardableResult
public func assertGolden(stamps: [SketchPoint], brush: Brush = .builtin(.softRound), canvas: Canvas,
                         effects: AgeEffects = AgeEffects(), named name: String? = nil, frame: Int = 0,
                         primitive: Primitive = .points, tolerance: GoldenTolerance? = nil,
                         ignore: [GoldenTolerance.Region] = [], record: Bool = false,
                         fileID: String = #fileID, file: StaticString = #filePath, function: String = #function,
                         line: UInt = #line, column: UInt = #column) async -> GoldenCaseResult? {
    let at = GoldenAssertion.Site(fileID: fileID, file: file, function: function, line: line, column: column)
    return await GoldenAssertion.run(name: name, frame: frame, primitive: primitive, tolerance: tolerance, ignore: ignore,
                                     record: record, scriptPath: "\(fileID):\(line)", at: at) { renderer in
        let batch = StampBatch(brushKey: "assertGolden:\(brush.hashValue)", brush: brush, stamps: stamps)
        return try await renderer.render(canvas: canvas, batches: [batch],
                                         settings: RenderSettings(effects: effects, primitive: primitive),
                                         ageOffset: Float(frame))
    }
}
