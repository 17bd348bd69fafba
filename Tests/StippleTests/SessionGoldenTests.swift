import Foundation
import Stipple
import StippleGolden
import StippleTesting
import XCTest

/// `assertGolden(of:)` pins a session's frames: an image, and a live canvas's current frame.
final class SessionGoldenTests: XCTestCase {
    func testASessionsFramesArePinned() async throws {
        let live = LiveCanvas(renderer: try Renderer(), canvas: Canvas(width: 64, height: 48, background: .color(Color(hex: "#101014")!)))
        let brush = Brush.builtin(.softRound, size: 32)
        for (i, color) in ["#ff3b30", "#34c759", "#0a84ff"].enumerated() {
            let id = await live.beginStroke(brushKey: "soft", brush: brush, style: StrokeStyle(color: Color(hex: color)!, radius: 5))
            try await live.add(TouchSample(x: 10, y: Float(10 + 12 * i), t: 0), to: id)
            try await live.add(TouchSample(x: 54, y: Float(14 + 12 * i), t: 0), to: id)
            try await live.endStroke(id)
        }
        let before = try await live.render()
        let three = await assertGolden(of: before, named: "session-three-strokes")
        XCTAssertTrue(three?.isFailure == false, three?.message ?? "no result")
        try await live.undo()
        let undone = await assertGolden(of: try await live.render(), named: "session-after-undo")
        XCTAssertTrue(undone?.isFailure == false, undone?.message ?? "no result")
        try await live.redo()
        // One golden is checked once a run (a second check of it is an error): redo is held
        // to the frame before the undo directly, byte for byte, and the live canvas's own
        // frame is pinned under its own name.
        let again = try await live.render()
        XCTAssertEqual(again, before, "redo gives the frame before the undo")
        let canvasFrame = await assertGolden(of: live, named: "session-after-redo")
        XCTAssertTrue(canvasFrame?.isFailure == false, canvasFrame?.message ?? "no result")
    }
}
