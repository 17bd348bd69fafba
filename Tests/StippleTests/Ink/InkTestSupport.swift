import Foundation
import XCTest
@testable import Stipple

/// Where the ink tests find their files: the project's own fixtures, and real captured ink
/// beside the checkout (`../shared/ink`, not part of the project; tests skip without it).
enum InkFiles {
    static let fixtures = TestSupport.fixtures.appendingPathComponent("ink").path
    static let shared = TestSupport.thirdParty("ink").path

    static func fixture(_ name: String) -> String { (fixtures as NSString).appendingPathComponent(name) }

    /// A file of real ink, or a skip that says what is missing.
    static func real(_ name: String) throws -> String {
        let path = (shared as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: path) else {
            throw XCTSkip("real ink \(name) is not beside the checkout (looked for \(path))")
        }
        return path
    }

    /// Every drawing of a real Quick, Draw! file, or a skip.
    static func realDrawings(_ name: String) throws -> [InkDrawing] {
        let path = try real(name)
        return try QuickDrawFile(path: path).map { try $0.get().drawing }
    }

    static func inkML(_ text: String, file: String = "test.inkml") throws -> InkDrawing {
        try InkMLReader.parse(Array(text.utf8), file: file)
    }

    /// The message of the InputError `body` throws, or a failure.
    static func error(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            try body()
            XCTFail("expected an error", file: file, line: line)
            return ""
        } catch let e as InputError {
            return e.description
        } catch {
            XCTFail("expected an InputError, got \(error)", file: file, line: line)
            return ""
        }
    }
}
