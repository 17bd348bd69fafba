/// What a canvas starts as (docs/reference.md §5). The default is `.color(.transparent)`.
public enum Background: Sendable, Equatable {
    case color(Color)
    /// A PNG of the canvas's size. `path` is resolved against the script's folder;
    /// `location` is where the script names it, for errors found when loading it.
    case image(path: String, location: InputLocation)
}
