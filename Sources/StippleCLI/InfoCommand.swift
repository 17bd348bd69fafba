import ArgumentParser
import Foundation
import Stipple
import StippleBench

struct InfoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show Stipple's version, the EGL platform chosen and why, the GL driver and its limits.")

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        let info = try makeRenderer().info
        // LP_NUM_THREADS means nothing to another driver (softpipe, a GPU's).
        let llvmpipe = LlvmpipeThreads.apply(to: info.glRenderer)
        let threads = llvmpipe ? LlvmpipeThreads.describe() : "none (the renderer is not llvmpipe)"
        let fields: [(String, String)] = [
            ("stipple", StippleVersion.string),
            ("platform", info.platform.rawValue),
            ("why", info.platformReason),
            ("egl", "\(info.eglVersion) (\(info.eglVendor))"),
            ("device", info.device.isEmpty ? "none" : info.device),
            ("vendor", info.glVendor),
            ("renderer", info.glRenderer),
            ("gl", info.glVersion),
            ("glsl", info.glslVersion),
            ("point sizes", "\(format(info.pointSizeRange.lowerBound))...\(format(info.pointSizeRange.upperBound)) px"),
            ("max texture", "\(info.maxTextureSize) px"),
            ("max viewport", "\(info.maxViewport.width)×\(info.maxViewport.height) px"),
            ("llvmpipe threads", threads),
        ]
        if json {
            let object: [String: Any] = [
                "version": StippleVersion.string, "llvmpipeThreads": llvmpipe ? LlvmpipeThreads.count() as Any : NSNull(),
                "platform": info.platform.rawValue, "platformReason": info.platformReason,
                "eglVersion": info.eglVersion, "eglVendor": info.eglVendor, "device": info.device,
                "vendor": info.glVendor, "renderer": info.glRenderer, "glVersion": info.glVersion,
                "glslVersion": info.glslVersion,
                "pointSizeRange": [info.pointSizeRange.lowerBound, info.pointSizeRange.upperBound],
                "maxTextureSize": info.maxTextureSize,
                "maxViewport": [info.maxViewport.width, info.maxViewport.height],
            ]
            print(try jsonText(object))
        } else {
            let width = fields.map(\.0.count).max() ?? 0
            for (k, v) in fields { print(k.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + v) }
        }
    }

    private func format(_ v: Float) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}
