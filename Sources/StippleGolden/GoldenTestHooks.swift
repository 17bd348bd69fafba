import Synchronization
import Stipple
import Foundation

/// Hooks for Stipple's own tests of the golden machinery, compiled into debug builds only.
///
/// `STIPPLE_TEST_NONDETERMINISTIC=PATTERN[,PATTERN…]` makes the cases whose names match
/// nondeterministic: every render of them gets a different pixel (0, 0), so the first
/// render fails its golden and the second differs from the first — the `flaky` verdict.
/// Release builds ignore the variable.
enum GoldenTestHooks {
    #if DEBUG
    private static let counter = Counter()
    #endif

    static func afterRender(_ name: String, _ image: Image) -> Image {
        #if DEBUG
        guard let patterns = ProcessInfo.processInfo.environment["STIPPLE_TEST_NONDETERMINISTIC"]?
            .split(separator: ",").map(String.init), !patterns.isEmpty,
            CasePattern.matchesAny(name, patterns), image.width > 0, image.height > 0 else { return image }
        let n = counter.next()
        var copy = image
        copy.pixels[0] = UInt8(truncatingIfNeeded: 101 &+ 37 &* n); copy.pixels[1] = 13
        copy.pixels[2] = UInt8(truncatingIfNeeded: 77 &+ 59 &* n); copy.pixels[3] = 255
        return copy
        #else
        return image
        #endif
    }

    private final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func next() -> Int { value.add(1, ordering: .relaxed).newValue }
    }
}
