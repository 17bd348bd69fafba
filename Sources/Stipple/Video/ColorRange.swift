/// The range of 8-bit Y'CbCr samples (docs/reference.md §11): limited ("TV", Y' 16…235, Cb/Cr 16…240)
/// or full ("PC", 0…255). y4m names it with `XCOLORRANGE=`; without it, limited.
public enum ColorRange: String, Sendable, CaseIterable, Equatable {
    case limited
    case full
}
