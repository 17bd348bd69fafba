import CStipple
import XCTest
@testable import Stipple

final class SketchPointLayoutTests: XCTestCase {
    func testLayoutIs36BytesInSpecOrder() {
        XCTAssertEqual(MemoryLayout<SketchPoint>.size, 36)
        XCTAssertEqual(MemoryLayout<SketchPoint>.stride, 36)
        XCTAssertEqual(MemoryLayout<SketchPoint>.alignment, 4)
        let offsets: [(PartialKeyPath<SketchPoint>, Int)] = [
            (\.x, 0), (\.y, 4), (\.radius, 8), (\.age, 12), (\.dissolveAngle, 16),
            (\.red, 20), (\.green, 24), (\.blue, 28), (\.alpha, 32),
        ]
        for (path, offset) in offsets {
            XCTAssertEqual(MemoryLayout<SketchPoint>.offset(of: path), offset)
        }
        XCTAssertEqual(MemoryLayout<stp_sketch_point>.size, MemoryLayout<SketchPoint>.size)
        XCTAssertEqual(MemoryLayout<stp_quad_vertex>.stride, 48)
    }
}
