import Foundation
import Stipple
import StippleGolden

/// As `assertGolden(script:)`, for an image you made yourself (a session's frame, a
/// composite): named and recorded as `assertGolden(script:)` names and records its goldens.
/// `primitive` only names the golden (say which one drew the image).
///
/// ```swift
/// try await canvas.undo()
/// await assertGolden(of: try await canvas.render(), named: "after-undo")
/// ```
@discardableResult
public func assertGolden(of image: Image, named name: String? = nil, primitive: Primitive = .points,
                         tolerance: GoldenTolerance? = nil, ignore: [GoldenTolerance.Region] = [], record: GoldenRecordMode? = nil,
                         fileID: String = #fileID, file: StaticString = #filePath, function: String = #function,
                         line: UInt = #line, column: UInt = #column) async -> GoldenCaseResult? {
    let at = GoldenAssertion.Site(fileID: fileID, file: file, function: function, line: line, column: column)
    return await GoldenAssertion.run(name: name, frame: 0, primitive: primitive, tolerance: tolerance, ignore: ignore,
                                     record: record, scriptPath: "\(fileID):\(line)", at: at) { _ in image }
}

/// A live canvas's current frame (`canvas.render()`), checked as above.
@discardableResult
public func assertGolden(of canvas: LiveCanvas, named name: String? = nil, tolerance: GoldenTolerance? = nil,
                         ignore: [GoldenTolerance.Region] = [], record: GoldenRecordMode? = nil,
                         fileID: String = #fileID, file: StaticString = #filePath, function: String = #function,
                         line: UInt = #line, column: UInt = #column) async -> GoldenCaseResult? {
    let at = GoldenAssertion.Site(fileID: fileID, file: file, function: function, line: line, column: column)
    return await GoldenAssertion.run(name: name, frame: 0, primitive: canvas.settings.primitive, tolerance: tolerance,
                                     ignore: ignore, record: record, scriptPath: "\(fileID):\(line)", at: at) { _ in
        try await canvas.render()
    }
}
