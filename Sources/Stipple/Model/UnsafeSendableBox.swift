/// A value shared with `concurrentPerform`'s iterations, each touching its own part.
// Unchecked: each of `concurrentPerform`'s iterations touches only its own part of the value.
final class UnsafeSendableBox<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}
