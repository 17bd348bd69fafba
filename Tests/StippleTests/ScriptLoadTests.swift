import Foundation
import XCTest
@testable import Stipple

final class ScriptLoadTests: XCTestCase {
    private var fx: ScriptFixture!

    override func setUpWithError() throws { fx = try ScriptFixture() }
    override func tearDown() { fx = nil }

    func testPathsResolveAgainstTheScriptsFolder() throws {
        // The script lives in sub/; its paths reach the fixture's files through "..".
        let path = fx.write("""
            { "canvas": { "width": 4, "height": 4, "background": { "image": "../bg.png" } },
              "brushes": { "soft": "../brushes/soft.png", "abs": "\(fx.folder)/brushes/soft.png" },
              "draw": [ { "brush": "soft", "stamps": "../burst.sketchpoints" } ] }
            """, to: "sub/s.json")
        let s = try Script.load(path: path)
        XCTAssertEqual(s.path, path)
        XCTAssertEqual(s.directory, fx.folder + "/sub")
        guard case let .image(bg, _) = s.canvas.background else { return XCTFail() }
        XCTAssertEqual(bg, fx.folder + "/sub/../bg.png")
        guard case let .file(soft, _) = s.brushes["soft"], case let .file(abs, _) = s.brushes["abs"] else { return XCTFail() }
        XCTAssertEqual(soft, fx.folder + "/sub/../brushes/soft.png")
        XCTAssertEqual(abs, fx.folder + "/brushes/soft.png")
        XCTAssertEqual(s.draw[0].source, fx.folder + "/sub/../burst.sketchpoints")
        XCTAssertEqual(s.draw[0].stamps, fx.burst)
    }

    func testAPathThatExistsOnlyBesideTheCurrentFolderIsNotFound() throws {
        // "bg.png" exists in the fixture folder, not in sub/ where the script is.
        let path = fx.write(#"{ "canvas": { "width": 4, "height": 4, "background": { "image": "bg.png" } } }"#, to: "sub/s.json")
        XCTAssertThrowsError(try Script.load(path: path)) { error in
            XCTAssertEqual((error as? InputError)?.description,
                           "\(path):1:65: background image not found: \(fx.folder)/sub/bg.png")
        }
    }

    func testFolderOfAPath() {
        XCTAssertEqual(FileSystem.folder(of: "scripts/a.json"), "scripts")
        XCTAssertEqual(FileSystem.folder(of: "a.json"), ".")
        XCTAssertEqual(FileSystem.folder(of: "/a.json"), "/")
        XCTAssertEqual(FileSystem.resolve("b.png", against: "."), "b.png")
        XCTAssertEqual(FileSystem.resolve("b.png", against: "/"), "/b.png")
        XCTAssertEqual(FileSystem.resolve("/x/b.png", against: "scripts"), "/x/b.png")
        XCTAssertEqual(FileSystem.resolve("b.png", against: "scripts"), "scripts/b.png")
    }

    func testMissingAndUnreadableScripts() {
        let missing = fx.folder + "/none.json"
        XCTAssertThrowsError(try Script.load(path: missing)) { error in
            XCTAssertEqual((error as? InputError)?.description, "\(missing): file not found")
        }
        XCTAssertThrowsError(try Script.load(path: fx.folder)) { error in
            XCTAssertEqual((error as? InputError)?.description, "\(fx.folder): is a folder, not a file")
        }
    }

    func testErrorsNameTheScriptAsGiven() {
        let path = fx.write("{\n  \"canvas\": { \"width\": 2, \"height\": 2 },\n  \"fps\": 30,\n}", to: "trailing.json")
        XCTAssertThrowsError(try Script.load(path: path)) { error in
            XCTAssertEqual((error as? InputError)?.description,
                           "\(path):4:1: trailing comma: expected another object member after ','")
        }
    }
}
