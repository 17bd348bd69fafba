#if canImport(Testing)
import Testing
#endif

/// Which test is running: its name for goldens, and a key that tells apart the cases of
/// a parameterized Swift Testing test, so that each argument gets its own goldens.
struct TestIdentity {
    /// "testTwoCalls", or "squares-3" for `squares(size:)` with the argument 3.
    var baseName: String
    /// Distinct for each test (and each argument of a parameterized one).
    var key: String

    static func current(function: String) -> TestIdentity {
        let bare = GoldenAssertion.defaultName(function)
        #if canImport(Testing)
        if let test = Test.current {
            let arguments = Test.Case.current.flatMap { $0.isParameterized ? argumentText($0) : nil }
            let suffix = arguments.map { "-" + GoldenAssertion.safe($0, fallback: "argument") } ?? ""
            return TestIdentity(baseName: bare + suffix, key: "\(test.id)|\(arguments ?? "")")
        }
        #endif
        return TestIdentity(baseName: bare, key: function)
    }

    #if canImport(Testing)
    /// The case's argument values, "3" or "red_2", found by reflection: Swift Testing keeps
    /// them out of its public API, but a golden per argument needs a name per argument.
    static func argumentText(_ testCase: Test.Case) -> String? {
        var values: [String] = []
        func walk(_ value: Any, depth: Int) {
            guard depth < 6 else { return }
            for child in Mirror(reflecting: value).children {
                if child.label == "arguments" {
                    for argument in Mirror(reflecting: child.value).children {
                        if let v = Mirror(reflecting: argument.value).children.first(where: { $0.label == "value" }) {
                            values.append(String(describing: v.value))
                        }
                    }
                    return
                }
                walk(child.value, depth: depth + 1)
            }
        }
        walk(testCase, depth: 0)
        return values.isEmpty ? nil : values.joined(separator: "_")
    }
    #endif
}
