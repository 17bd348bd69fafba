import Foundation
import XCTest

/// `stipple bisect`: the first draw entry whose drawing departs from the golden, named by
/// its line and column; the background, and nothing at all, said in one line with exit 1.
final class BisectCommandTests: XCTestCase {
    /// A 30-stroke script, one entry a line (line 3 + i holds entry i + 1); `changed` gets
    /// another colour, `background` another canvas.
    private func script(changed: Int? = nil, background: String = "#ffffff") -> String {
        let entries = (0..<30).map { i -> String in
            let x = 10 + Double((i * 37) % 200), y = 10 + Double((i * 53) % 120)
            let color = i == changed ? "#30ff3b" : "#ff3b30"
            return #"    {"brush": "soft", "points": [{"x": \#(x), "y": \#(y), "t": 0}, {"x": \#(x + 40), "y": \#(y + 20), "t": 0.1}], "color": "\#(color)", "radius": 5}"#
        }
        return """
            {"canvas": {"width": 256, "height": 160, "background": "\(background)"}, "brushes": {"soft": {"builtin": "soft-round"}},
             "draw": [
            \(entries.joined(separator: ",\n"))
            ]}
            """
    }

    private func setUp(_ changed: Int?, background: String = "#ffffff") throws -> URL {
        let dir = try TestSupport.temporaryDirectory(self, "bisect")
        try script().write(to: dir.appendingPathComponent("old.json"), atomically: true, encoding: .utf8)
        try script(changed: changed, background: background)
            .write(to: dir.appendingPathComponent("now.json"), atomically: true, encoding: .utf8)
        let r = try TestSupport.stipple(["render", "old.json", "-o", "golden.png"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        return dir
    }

    func testNamesTheChangedEntryAndItsLine() throws {
        for changed in [0, 16, 29] {
            let dir = try setUp(changed)
            let r = try TestSupport.stipple(["bisect", "now.json", "--golden", "golden.png", "--diff", "d.png"], in: dir)
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.hasPrefix("now.json:\(changed + 3):5: draw entry \(changed + 1) of 30 makes frame 0 differ"),
                          r.stdout)
            XCTAssertTrue(r.stdout.contains("pixels beyond the tolerance in "), r.stdout)
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent("d.png").path))
            let prefixes = Int(r.stdout.components(separatedBy: "(").last!.split(separator: " ")[0])!
            XCTAssertLessThanOrEqual(prefixes, 7, "a binary search over 30 entries renders ⌈log2 30⌉ + 2 prefixes at most")
        }
    }

    func testNothingDiffers() throws {
        let dir = try setUp(nil)
        let r = try TestSupport.stipple(["bisect", "now.json", "--golden", "golden.png"], in: dir)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("matches golden.png within the tolerance"), r.stderr)
        XCTAssertEqual(r.stdout, "")
    }

    func testTheBackgroundAloneDiffers() throws {
        let dir = try setUp(nil, background: "#fffff0")
        let r = try TestSupport.stipple(["bisect", "now.json", "--golden", "golden.png"], in: dir)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("the background alone already differs from golden.png"), r.stderr)
    }

    func testATolerancePassesASmallChange() throws {
        let dir = try setUp(16)
        let r = try TestSupport.stipple(["bisect", "now.json", "--golden", "golden.png", "--max-pixels", "100%"], in: dir)
        XCTAssertEqual(r.status, 1, r.stdout)
        XCTAssertTrue(r.stderr.contains("no draw entry to blame"), r.stderr)
    }

    func testAGoldenOfAnotherSizeIsBadInput() throws {
        let dir = try setUp(16)
        _ = try TestSupport.stipple(["brush", "hard-round", "--size", "8", "-o", "small.png"], in: dir)
        let r = try TestSupport.stipple(["bisect", "now.json", "--golden", "small.png"], in: dir)
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("the golden is 8×8; the script's canvas is 256×160"), r.stderr)
    }
}
