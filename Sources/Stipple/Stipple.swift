/// The version of Stipple that was built: `stipple --version` and `stipple info` print it.
public enum StippleVersion {
    /// The version, as "MAJOR.MINOR.PATCH".
    public static let string = "0.1.0"
}
