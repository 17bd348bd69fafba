import Foundation
import XCTest
@testable import Stipple

/// Checks the CPU reference against values worked out by hand from docs/reference.md §3 and §4, so
/// that when the GPU and the reference agree, both agree with the reference (docs/reference.md).
final class ReferenceRendererTests: XCTestCase {
    typealias P = ReferenceRenderer.Parameters

    /// Coverage 1 everywhere: the stamp is its full square.
    let solidBrush = Brush(width: 1, height: 1, coverage: [255])

    private func px(_ bytes: [UInt8], _ w: Int, _ x: Int, _ y: Int) -> [UInt8] {
        Array(bytes[(y * w + x) * 4 ..< (y * w + x) * 4 + 4])
    }

    // MARK: §4 coverage

    func testOpaqueHardStampCoversExactlyThePixelCentresInsideItsSquare() {
        // x 10.3 ± 2.35 → [7.95, 12.65]: centres 8.5 ... 12.5; y 7.8 ± 2.35 → [5.45, 10.15]: 5.5 ... 9.5.
        let stamp = SketchPoint(x: 10.3, y: 7.8, radius: 2.35, red: 1, green: 0.2, blue: 0, alpha: 1)
        let img = ReferenceRenderer.render(width: 20, height: 16, background: .transparent, stamps: [stamp],
                                           brush: solidBrush, parameters: P())
        for y in 0..<16 {
            for x in 0..<20 {
                let inside = (8...12).contains(x) && (5...9).contains(y)
                let p = img.pixel(x, y)
                XCTAssertEqual([p.r, p.g, p.b, p.a], inside ? [255, 51, 0, 255] : [0, 0, 0, 0], "(\(x), \(y))")
            }
        }
    }

    func testCoverageAtManySubpixelPositionsAvoidingTies() {
        // The rule, stated once: pixel (i, j) is covered iff its centre is inside the square.
        let w = 12, h = 12
        var checked = 0
        for step in 0..<40 {
            let cx = 5.0 + Double(step) * 0.037, cy = 6.0 - Double(step) * 0.051
            let r = 1.1 + Double(step % 7) * 0.33
            let left = cx - r, right = cx + r, top = cy - r, bottom = cy + r
            // Skip positions where any pixel centre is within 1e-3 of an edge (a tie).
            let edges = [left, right, top, bottom]
            if edges.contains(where: { e in abs((e - 0.5) - (e - 0.5).rounded()) < 1e-3 }) { continue }
            checked += 1
            let stamp = SketchPoint(x: Float(cx), y: Float(cy), radius: Float(r))
            let out = ReferenceRenderer.renderPremultiplied(width: w, height: h, background: .transparent,
                                                            stamps: [stamp], brush: solidBrush, parameters: P())
            for j in 0..<h {
                for i in 0..<w {
                    let c = (Double(i) + 0.5, Double(j) + 0.5)
                    let inside = c.0 > left && c.0 < right && c.1 > top && c.1 < bottom
                    XCTAssertEqual(px(out, w, i, j)[3], inside ? 255 : 0, "step \(step) pixel (\(i), \(j))")
                }
            }
        }
        XCTAssertGreaterThan(checked, 30)
    }

    func testStampCentredOffCanvasDrawsItsVisiblePart() {
        // Centre (-1, 2), side 6: x in [-4, 2] → columns 0, 1; y in [-1, 5] → rows 0...4.
        let stamp = SketchPoint(x: -1, y: 2, radius: 3)
        let out = ReferenceRenderer.renderPremultiplied(width: 6, height: 6, background: .transparent,
                                                        stamps: [stamp], brush: solidBrush, parameters: P())
        for j in 0..<6 {
            for i in 0..<6 {
                XCTAssertEqual(px(out, 6, i, j)[3], i <= 1 && j <= 4 ? 255 : 0, "(\(i), \(j))")
            }
        }
    }

    func testAsymmetricBrushAppearsUpright() {
        // Only the top-left texel is set. Stamp side 8 at (8, 8): square [4, 12]².
        let brush = Brush(width: 2, height: 2, coverage: [255, 0, 0, 0])
        let stamp = SketchPoint(x: 8, y: 8, radius: 4)
        let out = ReferenceRenderer.renderPremultiplied(width: 16, height: 16, background: .transparent,
                                                        stamps: [stamp], brush: brush, parameters: P())
        XCTAssertEqual(px(out, 16, 4, 4), [255, 255, 255, 255])   // top-left: u = v = 1/16, clamped to texel 0
        XCTAssertEqual(px(out, 16, 11, 11), [0, 0, 0, 0])         // bottom-right
        XCTAssertEqual(px(out, 16, 11, 4), [0, 0, 0, 0])          // top-right
        XCTAssertEqual(px(out, 16, 4, 11), [0, 0, 0, 0])          // bottom-left
        // Pixel (7, 7): u = v = 3.5/8; texel space 0.875 - 0.5 = 0.375 past texel 0's centre,
        // so coverage = (1 - 0.375)² = 0.390625 → 99.6 → 100.
        XCTAssertEqual(px(out, 16, 7, 7), [100, 100, 100, 100])
        // Pixel (5, 7): u = 1.5/8 → x = -0.125, clamped: weight 1 on column 0; v as above.
        XCTAssertEqual(px(out, 16, 5, 7)[3], UInt8((0.625 * 255).rounded()))
    }

    func testGreyBrushBilinearMidpoint() {
        // Two texels 0 and 255 side by side; halfway between their centres gives 127.5/255.
        let brush = Brush(width: 2, height: 1, coverage: [0, 255])
        XCTAssertEqual(ReferenceRenderer.sampleBilinear(brush.coverage.map { Double($0) / 255 }, 2, 1, 0.5, 0.5), 0.5)
        XCTAssertEqual(ReferenceRenderer.sampleBilinear(brush.coverage.map { Double($0) / 255 }, 2, 1, 0.25, 0.5), 0)
        XCTAssertEqual(ReferenceRenderer.sampleBilinear(brush.coverage.map { Double($0) / 255 }, 2, 1, 0.625, 0.5), 0.75)
    }

    // MARK: §3 age effects

    /// M = 100, D = 6, radius 10, colour (0.2, 0.4, 1.0, 0.5), drifting along (0.8, 0.6).
    private func geometry(life: Double, maxAge: Float = 100, pointScale: Float = 1, radius: Float = 10)
        -> ReferenceRenderer.Geometry? {
        let p = SketchPoint(x: 50, y: 40, radius: radius, age: Float(life * Double(maxAge)),
                            dissolveAngle: Float(atan2(0.6, 0.8)), red: 0.2, green: 0.4, blue: 1.0, alpha: 0.5)
        return ReferenceRenderer.stampGeometryValue(p, P(maxAge: maxAge, dissolveDistance: 6, pointScale: pointScale))
    }

    private func assertGeometry(_ g: ReferenceRenderer.Geometry?, drift: Double, diameter: Double, rgb: [Double],
                                file: StaticString = #filePath, line: UInt = #line) {
        guard let g else { return XCTFail("stamp should be alive", file: file, line: line) }
        let eps = 1e-5  // the inputs are Floats
        XCTAssertEqual(g.centreX, 50 + 0.8 * drift, accuracy: eps, "centre x", file: file, line: line)
        XCTAssertEqual(g.centreY, 40 + 0.6 * drift, accuracy: eps, "centre y", file: file, line: line)
        XCTAssertEqual(g.diameter, diameter, accuracy: eps, "diameter", file: file, line: line)
        XCTAssertEqual(g.red, rgb[0], accuracy: eps, "red", file: file, line: line)
        XCTAssertEqual(g.green, rgb[1], accuracy: eps, "green", file: file, line: line)
        XCTAssertEqual(g.blue, rgb[2], accuracy: eps, "blue", file: file, line: line)
        XCTAssertEqual(g.alpha, 0.5, accuracy: eps, "alpha is unchanged", file: file, line: line)
    }

    func testAgeEffectsAtKeyLives() {
        let plain = [0.2, 0.4, 1.0]
        let whitened30 = [0.2 + 0.3 * 0.8, 0.4 + 0.3 * 0.6, 1.0]  // mix(c, 1, 0.3)
        let whitened60 = [0.2 + 0.6 * 0.8, 0.4 + 0.6 * 0.6, 1.0]  // mix(c, 1, 0.6)
        // life 0: intro 1 → diameter 2·10·2 = 40, whitened by 0.6.
        assertGeometry(geometry(life: 0), drift: 0, diameter: 40, rgb: whitened60)
        // life 0.025: intro 1 - smoothstep = 0.5 → diameter 30, whitened by 0.3.
        assertGeometry(geometry(life: 0.025), drift: 0, diameter: 30, rgb: whitened30)
        // life 0.05: intro over → diameter 20, colour as given.
        assertGeometry(geometry(life: 0.05), drift: 0, diameter: 20, rgb: plain)
        // life 0.7: flare and shrink just starting → unchanged.
        assertGeometry(geometry(life: 0.7), drift: 0, diameter: 20, rgb: plain)
        // life 0.75: flare smoothstep(.7,.8,.75) = 0.5 → whitened by 0.3;
        // shrink t = 0.2 → 1 - 0.04·2.6 = 0.896 → 17.92; outro just starting.
        assertGeometry(geometry(life: 0.75), drift: 0, diameter: 17.92, rgb: whitened30)
        // life 0.8: flare 1 → whitened by 0.6; shrink t = 0.4 → 1 - 0.16·2.2 = 0.648 → 12.96;
        // outro t = 0.2 → 0.104 → drift 0.624 px.
        assertGeometry(geometry(life: 0.8), drift: 0.624, diameter: 12.96, rgb: whitened60)
        // life 0.95: shrink 0 → the 1-px minimum; outro t = 0.8 → 0.64·1.4 = 0.896 → drift 5.376.
        assertGeometry(geometry(life: 0.95), drift: 5.376, diameter: 1, rgb: whitened60)
    }

    func testPointScaleAndAgeOffset() {
        assertGeometry(geometry(life: 0.05, pointScale: 1.5), drift: 0, diameter: 30, rgb: [0.2, 0.4, 1.0])
        // Stored age 10 + offset 60 with M = 100 is life 0.7.
        let p = SketchPoint(x: 50, y: 40, radius: 10, age: 10, red: 0.2, green: 0.4, blue: 1, alpha: 0.5)
        let g = ReferenceRenderer.stampGeometry(p, P(maxAge: 100, ageOffset: 60))
        XCTAssertEqual(g?.diameter ?? 0, 20, accuracy: 1e-9)
        let g2 = ReferenceRenderer.stampGeometry(p, P(maxAge: 100, ageOffset: 65))  // life 0.75
        XCTAssertEqual(g2?.diameter ?? 0, 17.92, accuracy: 1e-9)
    }

    func testNoAgingWhenMaxAgeIsZero() {
        let p = SketchPoint(x: 3, y: 4, radius: 2, age: 1e6, dissolveAngle: 1, red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
        let g = ReferenceRenderer.stampGeometry(p, P(maxAge: 0))
        XCTAssertEqual(g?.diameter, 4)
        XCTAssertEqual(g?.centreX, 3); XCTAssertEqual(g?.centreY, 4)
        XCTAssertEqual(g?.red ?? 0, 0.1, accuracy: 1e-7)
    }

    func testOnePixelMinimum() {
        let tiny = SketchPoint(x: 5.5, y: 5.5, radius: 0.2)
        XCTAssertEqual(ReferenceRenderer.stampGeometry(tiny, P())?.diameter, 1)
        // A 1-px stamp centred on a pixel centre covers that pixel and no other.
        let out = ReferenceRenderer.renderPremultiplied(width: 11, height: 11, background: .transparent,
                                                        stamps: [tiny], brush: solidBrush, parameters: P())
        for j in 0..<11 {
            for i in 0..<11 {
                XCTAssertEqual(px(out, 11, i, j)[3], i == 5 && j == 5 ? 255 : 0, "(\(i), \(j))")
            }
        }
        // Radius 0 is drawn 1 px wide too.
        XCTAssertEqual(ReferenceRenderer.stampGeometry(SketchPoint(x: 0, y: 0, radius: 0), P())?.diameter, 1)
    }

    // MARK: §4 blending

    func testOverCompositingOfTwoTranslucentStamps() {
        // Opaque blue background; red at alpha 0.4, then green at alpha 0.6, both full coverage.
        let bg = Color(red: 0, green: 0, blue: 1, alpha: 1)
        let red = SketchPoint(x: 1, y: 1, radius: 1, red: 1, green: 0, blue: 0, alpha: 0.4)
        let green = SketchPoint(x: 1, y: 1, radius: 1, red: 0, green: 1, blue: 0, alpha: 0.6)
        // After red:   (0.4, 0, 0.6, 1) → (102, 0, 153, 255).
        // After green: (0.6·0 + 0.4·102, 153, 0.4·153, 255) = (40.8, 153, 61.2, 255) → (41, 153, 61, 255).
        let out = ReferenceRenderer.renderPremultiplied(width: 2, height: 2, background: bg, stamps: [red, green],
                                                        brush: solidBrush, parameters: P())
        XCTAssertEqual(px(out, 2, 0, 0), [41, 153, 61, 255])
        // Buffer order matters: green then red gives (102 + 0.6·0, 0.6·153, 0.6·102, 255).
        let swapped = ReferenceRenderer.renderPremultiplied(width: 2, height: 2, background: bg, stamps: [green, red],
                                                            brush: solidBrush, parameters: P())
        XCTAssertEqual(px(swapped, 2, 0, 0), [102, 92, 61, 255])  // 91.8 → 92, 61.2 → 61

        // On a transparent canvas: red 0.4 → (102, 0, 0, 102); green 0.6 over it →
        // (40.8, 153, 0, 153 + 40.8) → (41, 153, 0, 194); straight (54, 201, 0, 194).
        let clear = ReferenceRenderer.render(width: 2, height: 2, background: .transparent, stamps: [red, green],
                                             brush: solidBrush, parameters: P())
        let p = clear.pixel(1, 1)
        XCTAssertEqual([p.r, p.g, p.b, p.a], [54, 201, 0, 194])
    }

    func testRoundingEachBlendDiffersFromRoundingOnce() {
        // 20 stamps of white at alpha 0.01 over transparent: each blend adds 2.55, but the
        // RGBA8 target keeps whole levels, so per-blend rounding drifts from exact float.
        let stamps = Array(repeating: SketchPoint(x: 0.5, y: 0.5, radius: 0.5, alpha: 0.01), count: 20)
        let rounded = ReferenceRenderer.renderPremultiplied(width: 1, height: 1, background: .transparent, stamps: stamps,
                                                            brush: solidBrush, parameters: P(), roundEachBlend: true)
        let exact = ReferenceRenderer.renderPremultiplied(width: 1, height: 1, background: .transparent, stamps: stamps,
                                                          brush: solidBrush, parameters: P(), roundEachBlend: false)
        // Exact: 255 · (1 - 0.99^20) = 46.36 → 46.
        XCTAssertEqual(exact[3], 46)
        // Rounded: hand-iterate dst = round(2.55 + dst · 0.99).
        var d = 0.0
        for _ in 0..<20 { d = (2.55 + d * 0.99).rounded() }
        XCTAssertEqual(Double(rounded[3]), d)
        XCTAssertNotEqual(rounded[3], exact[3])
    }

    func testBackgroundIsPremultipliedAndQuantised() {
        // #80ff0040 → straight (128, 255, 0, 64)/255 → premultiplied 128·64/255 = 32.1 → 32, 64, 0, 64.
        let bg = Color(hex: "#80ff0040")!
        let out = ReferenceRenderer.renderPremultiplied(width: 1, height: 1, background: bg, stamps: [],
                                                        brush: solidBrush, parameters: P())
        XCTAssertEqual(out, [32, 64, 0, 64])
    }

    // MARK: life and death

    func testDeadAndUnbornStampsDrawNothing() {
        let bg = Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
        let params = P(maxAge: 10)
        let dead = SketchPoint(x: 4, y: 4, radius: 3, age: 10, red: 1, green: 0, blue: 0)
        let older = SketchPoint(x: 4, y: 4, radius: 3, age: 1000, red: 1, green: 0, blue: 0)
        let unborn = SketchPoint(x: 4, y: 4, radius: 3, age: -0.5, red: 1, green: 0, blue: 0)
        XCTAssertNil(ReferenceRenderer.stampGeometry(dead, params))
        XCTAssertNil(ReferenceRenderer.stampGeometry(older, params))
        XCTAssertNil(ReferenceRenderer.stampGeometry(unborn, params))
        XCTAssertNotNil(ReferenceRenderer.stampGeometry(SketchPoint(x: 4, y: 4, radius: 3, age: 9.99), params))
        // An offset can make a stored age unborn or dead too.
        let young = SketchPoint(x: 4, y: 4, radius: 3, age: 2)
        XCTAssertNil(ReferenceRenderer.stampGeometry(young, P(maxAge: 10, ageOffset: -3)))
        XCTAssertNil(ReferenceRenderer.stampGeometry(young, P(maxAge: 10, ageOffset: 8)))

        let blank = ReferenceRenderer.render(width: 8, height: 8, background: bg, stamps: [], brush: solidBrush, parameters: params)
        let drawn = ReferenceRenderer.render(width: 8, height: 8, background: bg, stamps: [dead, older, unborn],
                                             brush: solidBrush, parameters: params)
        XCTAssertEqual(drawn, blank)
        XCTAssertEqual(blank.pixel(3, 3).r, 128)
    }
}
