/// The canvas a script draws on (docs/reference.md §5).
public struct CanvasSpec: Sendable {
    /// Pixels, 1...`maxSide`.
    public var width: Int
    /// Pixels down, 1…65 536.
    public var height: Int
    /// What the canvas starts as: a colour or a PNG file of the canvas's size.
    public var background: Background
    /// Where the script gives `width`, for the renderer's "larger than the driver allows" error.
    package var sizeLocation: InputLocation
    /// Where the script gives `background`; nil when it does not (a bake refuses one).
    package var backgroundLocation: InputLocation?

    /// The largest side a script may ask for; the driver may allow less.
    public static let maxSide = 65536

    /// A canvas of `width` × `height` over `background`; the locations say where the script
    /// writes them, for errors.
    public init(width: Int, height: Int, background: Background = .color(.transparent),
                sizeLocation: InputLocation = .file) {
        self.width = width; self.height = height; self.background = background
        self.sizeLocation = sizeLocation
    }
}
