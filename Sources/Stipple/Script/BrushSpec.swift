/// A brush as a script defines it; the renderer loads or generates the `Brush`.
public enum BrushSpec: Sendable, Equatable {
    /// A PNG; `path` is resolved against the script's folder, and existed when the
    /// script was read. `location` is where the script names it.
    case file(path: String, location: InputLocation)
    /// A generated brush `size` texels square (1...`maxBuiltinSize`).
    case builtin(Brush.Builtin, size: Int, location: InputLocation)

    package static let maxBuiltinSize = 4096

    /// Where the script defines this brush.
    package var location: InputLocation {
        switch self {
        case let .file(_, location), let .builtin(_, _, location): return location
        }
    }
}
