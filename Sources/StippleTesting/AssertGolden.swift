import Foundation
import Stipple
import StippleGolden

/// Golden-image assertions for tests, from XCTest or Swift Testing.
///
/// **Names.** A golden is named after the test and the call's order in it, as
/// swift-snapshot-testing does: `testStamps.1`, `testStamps.2`; or after `named:`. A
/// parameterized Swift Testing test gets one golden per argument (`squares-3.1`). With a
/// `frame` other than 0 the name ends in `@frame-NNNN`. Two calls that resolve to one golden
/// file in a run are an error naming both call sites, and nothing is written.
///
/// **Place.** `__Goldens__/TESTFILE/NAME.DRIVER.PRIMITIVE.png` beside the test file (add
/// `exclude: ["__Goldens__"]` to the test target). Further accepted goldens of a case are
/// `NAME.DRIVER.PRIMITIVE~2.png`, `~3`…; the case passes when it matches any of them.
///
/// **Rules** are those of `stipple test` (see `GoldenCheck`): compared exactly on the driver
/// that made the golden unless a tolerance is given; another driver's quads golden with
/// `.crossDriver`; a failing image is rendered twice, and two renders that differ are
/// `flaky`. A failure writes expected.png, actual.png and diff.png (under
/// `$STIPPLE_TEST_OUTPUT`, or the temporary folder's `stipple-test/`), names them and says
/// how to accept the new image.
///
/// **Recording** (`GoldenRecordMode`): `record:` for one call; else `STIPPLE_RECORD=missing|
/// failed|all|never` for the run (limited by `STIPPLE_RECORD_FILTER=PATTERN,…` to the golden
/// names matching); else `missing`, or `never` when `CI=true`.
///
/// ```swift
/// await assertGolden(script: "Fixtures/scripts/ages.json", frame: 55, primitive: .quads)
/// await assertGolden(stamps: points, canvas: Canvas(width: 64, height: 48), named: "two-dots")
/// ```
@discardableResult
public func assertGolden(script path: String, named name: String? = nil, frame: Int = 0, primitive: Primitive = .points,
                         tolerance: GoldenTolerance? = nil, ignore: [GoldenTolerance.Region] = [],
                         record: GoldenRecordMode? = nil,
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
                         ignore: [GoldenTolerance.Region] = [], record: GoldenRecordMode? = nil,
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
