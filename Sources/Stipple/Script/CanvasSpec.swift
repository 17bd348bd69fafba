/// The canvas a script draws on (docs/reference.md §5).
public struct CanvasSpec: Sendable {
    /// Pixels, 1...`maxSide`.
    public var width: Int
    public var height: Int
    public var background: Background
    /// Where the script gives `width`, for the renderer's "larger than the driver allows" error.
    package var sizeLocation: InputLocation
    /// Where the script gives `background`; nil when it does not (a bake refuses one).
    package var backgroundLocation: InputLocation?

    /// The largest side a script may ask for; the driver may allow less.
    public static let maxSide = 65536

    public init(width: Int, height: Int, background: Background = .color(.transparent),
                sizeLocation: InputLocation = .file) {
        self.width = width; self.height = height; self.background = background
        self.sizeLocation = sizeLocation
    }
}
