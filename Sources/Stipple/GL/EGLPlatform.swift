import CStipple

/// Which EGL platform to open (`STIPPLE_EGL_PLATFORM=gbm|device|surfaceless` forces one).
public enum EGLPlatform: String, Sendable, CaseIterable {
    /// GBM on a render node when one exists, else Mesa's surfaceless platform, else EGL's device platform.
    case automatic = "auto"
    case gbm
    case device
    case surfaceless

    var cValue: stp_platform {
        switch self {
        case .automatic: return STP_PLATFORM_AUTO
        case .gbm: return STP_PLATFORM_GBM
        case .device: return STP_PLATFORM_DEVICE
        case .surfaceless: return STP_PLATFORM_SURFACELESS
        }
    }

    init(_ c: stp_platform) {
        switch c {
        case STP_PLATFORM_GBM: self = .gbm
        case STP_PLATFORM_DEVICE: self = .device
        case STP_PLATFORM_SURFACELESS: self = .surfaceless
        default: self = .automatic
        }
    }

    package static let environmentVariable = "STIPPLE_EGL_PLATFORM"

    /// The platform asked for by `STIPPLE_EGL_PLATFORM`, or `.automatic` when it is unset or empty.
    package static func fromEnvironment(_ environment: [String: String]) throws -> EGLPlatform {
        guard let value = environment[environmentVariable], !value.isEmpty else { return .automatic }
        guard let platform = EGLPlatform(rawValue: value.lowercased()) else {
            throw RenderError("\(environmentVariable)=\(value): expected gbm, device, surfaceless or auto")
        }
        return platform
    }
}
