import Foundation
import XCTest
@testable import Stipple
@testable import StippleGolden

/// The golden folder's names: alternatives (`~N`), lookup order, case patterns.
final class GoldenStoreTests: XCTestCase {
    func testNamesWithAlternatives() throws {
        let p = try XCTUnwrap(GoldenStore.parse(fileName: "ages@frame-0005.llvmpipe.points~3.png"))
        XCTAssertEqual(p.name, "ages@frame-0005"); XCTAssertEqual(p.driver, "llvmpipe")
        XCTAssertEqual(p.primitive, .points); XCTAssertEqual(p.alternative, 3)
        XCTAssertEqual(GoldenStore.parse(fileName: "test.1.llvmpipe.quads.png")?.name, "test.1")
        XCTAssertEqual(GoldenStore.parse(fileName: "a.llvmpipe.quads.png")?.alternative, 1)
        for bad in ["a.llvmpipe.points~1.png", "a.llvmpipe.points~x.png", "a.llvmpipe.lines.png", "a.points.png", "a.llvmpipe.points.jpg"] {
            XCTAssertNil(GoldenStore.parse(fileName: bad), bad)
        }
        XCTAssertEqual(GoldenStore.fileName(name: "a", driver: "softpipe", primitive: .quads, alternative: 2), "a.softpipe.quads~2.png")
    }

    func testLookupListsAcceptedGoldensInOrder() throws {
        let dir = try TestSupport.temporaryDirectory(self, "store")
        let store = GoldenStore(directory: dir.path)
        for f in ["a.llvmpipe.points~10.png", "a.llvmpipe.points.png", "a.llvmpipe.points~2.png", "a.softpipe.quads.png",
                  "ab.llvmpipe.points.png"] {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(f).path, contents: Data([0]))
        }
        guard case let .own(paths) = store.lookup(name: "a", driver: "llvmpipe", primitive: .points) else { return XCTFail() }
        XCTAssertEqual(paths.map { URL(fileURLWithPath: $0).lastPathComponent },
                       ["a.llvmpipe.points.png", "a.llvmpipe.points~2.png", "a.llvmpipe.points~10.png"])
        XCTAssertEqual(URL(fileURLWithPath: store.nextAlternative(name: "a", driver: "llvmpipe", primitive: .points)).lastPathComponent,
                       "a.llvmpipe.points~3.png")
        XCTAssertEqual(store.lookup(name: "a", driver: "llvmpipe", primitive: .quads),
                       .otherDriver(paths: [dir.appendingPathComponent("a.softpipe.quads.png").path], driver: "softpipe"))
        XCTAssertEqual(store.lookup(name: "a", driver: "softpipe", primitive: .points), .onlyOtherDrivers(["llvmpipe"]))
        XCTAssertEqual(store.lookup(name: "b", driver: "llvmpipe", primitive: .points), .none)
    }

    func testCasePatterns() {
        XCTAssertTrue(CasePattern.matches("periscope@frame-0005", "periscope@*"))
        XCTAssertTrue(CasePattern.matches("ages", "ages"))
        XCTAssertFalse(CasePattern.matches("ages2", "ages"))
        XCTAssertTrue(CasePattern.matches("twoCalls.1", "twoCalls.?"))
        XCTAssertTrue(CasePattern.matches("abc", "*"))
        XCTAssertTrue(CasePattern.matches("a-b-c", "a*c"))
        XCTAssertFalse(CasePattern.matches("a-b-d", "a*c"))
    }

    func testRecordModeFromTheEnvironmentAndTheOldFlag() {
        XCTAssertEqual(GoldenRecordMode.fromEnvironment(["STIPPLE_RECORD": "1"]), .failed)
        XCTAssertEqual(GoldenRecordMode.fromEnvironment(["STIPPLE_RECORD": "never"]), .never)
        XCTAssertNil(GoldenRecordMode.fromEnvironment(["STIPPLE_RECORD": "0"]))
        XCTAssertEqual(GoldenRecordMode.default(isCI: true), .never)
    }
}
