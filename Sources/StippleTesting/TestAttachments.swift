import Foundation
import StippleGolden
#if canImport(Testing)
import Testing
#endif

extension GoldenAssertion {
    /// Inside a Swift Testing test, a failure's images become the test's attachments:
    /// `NAME.expected.png`, `NAME.actual.png`, `NAME.diff.png` (and `NAME.actual-2.png`, the
    /// second render of a flaky case), so that `swift test --attachments-path DIR` collects
    /// them and Xcode shows them beside the failure. XCTest runs keep only the files the
    /// failure message names.
    static func attachImages(of result: GoldenCaseResult, at site: Site) {
        #if canImport(Testing)
        guard Test.current != nil else { return }
        let location = SourceLocation(fileID: site.fileID, filePath: "\(site.file)",
                                      line: Int(site.line), column: Int(site.column))
        let images = [("expected", result.golden), ("actual", result.actual), ("diff", result.diff),
                      ("actual-2", result.secondActual)]
        for (role, path) in images {
            guard let path, let data = FileManager.default.contents(atPath: path) else { continue }
            Attachment.record([UInt8](data), named: "\(result.name).\(role).png", sourceLocation: location)
        }
        #endif
    }
}
