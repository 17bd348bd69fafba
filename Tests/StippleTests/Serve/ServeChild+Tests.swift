import Foundation
import XCTest
@testable import StippleBench

extension ServeChild {
    /// The `stipple serve` under test (port 0, a known token), stopped with the test.
    convenience init(_ arguments: [String]) throws {
        try self.init(exe: TestSupport.stippleBinary.path, arguments: arguments, token: "test-token-0123456789")
    }
}
