#if canImport(XCTest)
import XCTest
#endif
#if canImport(Testing)
import Testing
#endif

extension GoldenAssertion {
    /// Reports to Swift Testing inside a `@Test` (where XCTFail would be lost), else to XCTest.
    static func fail(_ message: String, at site: Site) {
        #if canImport(Testing)
        if Test.current != nil {
            Issue.record(Comment(rawValue: message),
                         sourceLocation: SourceLocation(fileID: site.fileID, filePath: "\(site.file)",
                                                        line: Int(site.line), column: Int(site.column)))
            return
        }
        #endif
        #if canImport(XCTest)
        XCTFail(message, file: site.file, line: site.line)
        #else
        print("stipple: golden failure: \(message)")
        #endif
    }
}
