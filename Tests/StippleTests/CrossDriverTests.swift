import XCTest
@testable import Stipple
@testable import StippleGolden

/// Every fixture on two drivers: llvmpipe (this process) against softpipe (`stipple render`
/// run as a child with GALLIUM_DRIVER=softpipe), compared premultiplied (docs/reference.md §7).
///
/// Asserted with quads, whose placement is exact on every driver: K = 8 per channel, and
/// at most 0.1 % of the canvas + 32 pixels beyond it. Point sprites are only measured and
/// printed: softpipe shifts points by 1/8 px (docs/reference.md §7), so no sane tolerance spans
/// the drivers for hard-edged brushes (docs/reference.md §7).
///
/// One fixture has its own K, with the reason: `overlap` piles 4000 stamps of alpha
/// ≤ 0.05; llvmpipe rounds to 8 bits at every blend, softpipe blends in float and rounds
/// once, so the two drift apart by up to ~22/255 there (measured) — a
/// property of the drivers, not of Stipple.
final class CrossDriverTests: XCTestCase {
    static let k = 8
    static let kOverride: [String: (k: Int, why: String)] = [
        "overlap": (24, "8-bit blending per stamp (llvmpipe) against float blending (softpipe) over thousands of alpha ≤ 0.05 stamps"),
    ]

    static func allowedPixels(_ image: Image) -> Int {
        image.width * image.height / 1000 + 32
    }

    func testQuadsAgreeAcrossLlvmpipeAndSoftpipe() async throws {
        let renderer = try Renderer()
        try XCTSkipUnless(GoldenFixtures.driverName(renderer.info.glRenderer) == "llvmpipe",
                          "this process runs on \"\(renderer.info.glRenderer)\", not llvmpipe: nothing to compare softpipe with")
        let info = try TestSupport.stipple(["info"], environment: ["GALLIUM_DRIVER": "softpipe"])
        let rendererLine = info.stdout.split(separator: "\n").first { $0.hasPrefix("renderer") } ?? ""
        try XCTSkipUnless(info.status == 0 && rendererLine.contains("softpipe"),
                          "softpipe is not available here (`GALLIUM_DRIVER=softpipe stipple info` says: \(rendererLine.isEmpty ? info.stderr : String(rendererLine)))")

        let dir = try TestSupport.temporaryDirectory(self, "stipple-cross-driver")
        let started = Date()
        var failures: [String] = []
        var table = ["fixture            primitive  max diff  pixels > 8     allowed  softpipe s"]
        for fixture in try GoldenFixtures.all() {
            // Quads first (asserted), then points (measured only).
            for primitive in [Primitive.quads, .points] {
                let out = dir.appendingPathComponent("\(fixture.name).\(primitive).softpipe.png")
                let t0 = Date()
                let run = try TestSupport.stipple(
                    ["render", fixture.script.path, "-o", out.path, "--primitive", primitive.rawValue],
                    environment: ["GALLIUM_DRIVER": "softpipe"])
                let seconds = Date().timeIntervalSince(t0)
                guard run.status == 0 else {
                    failures.append("\(fixture.name) \(primitive): stipple under softpipe exited \(run.status): \(run.stderr.prefix(400))")
                    continue
                }
                let soft = try PNGFile.read(path: out.path).image
                let llvm = try await GoldenFixtures.render(fixture, on: renderer, primitive: primitive)
                let k = primitive == .quads ? (Self.kOverride[fixture.name]?.k ?? Self.k) : Self.k
                let result = ImageComparison.compare(expected: llvm, actual: soft, maxChannelDifference: Self.k)
                let allowed = Self.allowedPixels(llvm)
                table.append(fixture.name.padding(toLength: 19, withPad: " ", startingAt: 0)
                    + primitive.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0)
                    + String(result.maxChannelDifference).padding(toLength: 10, withPad: " ", startingAt: 0)
                    + "\(result.pixelsOverTolerance) (\(ImageComparison.percent(result.pixelsOverTolerance, of: result.totalPixels)))"
                        .padding(toLength: 15, withPad: " ", startingAt: 0)
                    + String(allowed).padding(toLength: 9, withPad: " ", startingAt: 0)
                    + String(format: "%.2f", seconds))
                guard primitive == .quads else { continue }
                let checked = k == Self.k
                    ? result : ImageComparison.compare(expected: llvm, actual: soft, maxChannelDifference: k)
                if !checked.passes(maxPixels: allowed) {
                    let why = Self.kOverride[fixture.name].map { " (K = \($0.k): \($0.why))" } ?? ""
                    failures.append(GoldenFixtures.keepFailure(
                        "\(fixture.name)-softpipe-quads", expected: llvm, actual: soft, result: checked, k: k,
                        allowed: allowed, what: "softpipe differs from llvmpipe with quads\(why)"))
                }
            }
        }
        table.append(String(format: "total %.1f s", Date().timeIntervalSince(started)))
        print("llvmpipe vs softpipe, premultiplied, K = 8 (quads asserted, points measured):\n" + table.joined(separator: "\n"))
        XCTAssert(failures.isEmpty, "llvmpipe and softpipe disagree:\n" + failures.joined(separator: "\n"))
    }
}
