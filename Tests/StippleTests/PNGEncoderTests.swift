import Foundation
import XCTest
import CStipple
@testable import Stipple

/// Stipple's own PNG encoder (levels 0…3: segments on every core, runs and literals in
/// Huffman blocks of their own counts) against libpng's decoder: every image decodes to its
/// pixels, whole or band by band the bytes are the same, and no larger than libpng level 1's.
final class PNGEncoderTests: XCTestCase {
    /// Images that stress the coder: flat, noise, long runs, runs of every length from one
    /// byte to past the longest match (so that they start and end anywhere in the vector
    /// steps that find them), stripes of every kind, sizes that end segments mid-way, one
    /// pixel, one row, one column; grey and RGBA.
    func testEveryImageDecodesToItsPixels() throws {
        var rng = SplitMix64(seed: 11)
        let dir = try TestSupport.temporaryDirectory(self)
        var cases = 0
        for (w, h) in [(1, 1), (1, 300), (300, 1), (17, 5), (640, 411), (1280, 210), (97, 2711)] {
            for kind in 0..<6 {
                for channels in [1, 4] {
                    var pixels = [UInt8](repeating: 0, count: w * h * channels)
                    var run = (left: 0, value: UInt8(0))
                    for i in pixels.indices {
                        switch kind {
                        case 0: pixels[i] = 0                                             // flat
                        case 1: pixels[i] = UInt8(truncatingIfNeeded: rng.next())         // noise
                        case 2: pixels[i] = (i / (channels * 37)) % 3 == 0 ? 255 : 0      // runs
                        case 3: pixels[i] = UInt8(truncatingIfNeeded: (i / channels) % w) // gradient
                        case 4:                                                           // runs of any length
                            if run.left == 0 { run = (Int(rng.next() % 300) + 1, UInt8(rng.next() % 3)) }
                            pixels[i] = run.value; run.left -= 1
                        default: pixels[i] = rng.next() % 9 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : 128 // sparse
                        }
                    }
                    for level: Int32 in [0, 1, 3] {
                        let png: [UInt8]
                        let expected: [UInt8]
                        if channels == 4 {
                            png = try PNGFile.encode(Image(width: w, height: h, pixels: pixels), compression: level)
                            expected = pixels
                        } else {
                            png = try PNGFile.encodeGrey(pixels, width: w, height: h, compression: level)
                            expected = pixels.flatMap { [$0, $0, $0, 255] }
                        }
                        let path = dir.appendingPathComponent("c\(cases).png").path
                        try Data(png).write(to: URL(fileURLWithPath: path))
                        let decoded = try PNGFile.read(path: path)
                        XCTAssertEqual(decoded.image.pixels, expected, "\(w)×\(h) kind \(kind), \(channels) channels, level \(level)")
                        // Decoded from memory: the same pixels.
                        XCTAssertEqual(try PNGFile.decode(png).image.pixels, expected)
                        cases += 1
                    }
                }
            }
        }
        XCTAssertEqual(cases, 7 * 6 * 2 * 3)
    }

    /// Counts as skewed as Huffman codes get (byte value v 2^(15 − v) times, each more than all
    /// the rarer ones together) want codes of sixteen bits; deflate allows 15 and the coder
    /// makes at most 14, so that four literals fit one store. No byte repeats the one before
    /// it (a run would be coded as a match, not counted), and each row is the running sum of
    /// its bytes, so that the Sub filter gives them back. It decodes to its pixels, and
    /// encoding on one thread gives the bytes encoding on every core does.
    func testSkewedCountsKeepEveryCodeWithinItsLimit() throws {
        var rng = SplitMix64(seed: 5)
        let width = 16384, height = 4
        var left = (0..<16).map { 1 << (15 - $0) }  // how many of each byte value are still to place
        left[15] += width * height - left.reduce(0, +)
        var deltas: [UInt8] = []
        var previous = -1
        while true {
            // The value with the most left that differs from the one before.
            guard let next = left.indices.filter({ $0 != previous && left[$0] > 0 }).max(by: { left[$0] < left[$1] })
            else { break }
            deltas.append(UInt8(next)); left[next] -= 1; previous = next
        }
        XCTAssertEqual(deltas.count, width * height)
        var pixels: [UInt8] = []
        for y in 0..<height {
            var sum: UInt8 = 0
            pixels += deltas[(y * width)..<((y + 1) * width)].map { sum &+= $0; return sum }
        }
        let png = try PNGFile.encodeGrey(pixels, width: width, height: height, compression: 1)
        XCTAssertEqual(try PNGFile.decode(png).image.pixels, pixels.flatMap { [$0, $0, $0, 255] })
        // Many segments, encoded in turn on this thread and on every core.
        let rows = 3 * PNGSegments.rows(width: 640, channels: 4) + 7
        let image = Image(width: 640, height: rows, pixels: (0..<(640 * rows * 4)).map { _ in
            rng.next() % 5 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : 0
        })
        let one = try PNGFile.encode(image, compression: 1, onEveryCore: false)
        XCTAssertEqual(one, try PNGFile.encode(image, compression: 1, onEveryCore: true))
        XCTAssertEqual(try PNGFile.decode(one).image.pixels, image.pixels)
    }

    /// Bytes in memory that are not a whole PNG are refused as a file's are, naming the byte.
    func testBadBytesInMemoryAreRefusedWithTheReason() throws {
        let png = try PNGFile.encode(Image(width: 3, height: 2, pixels: [UInt8](repeating: 200, count: 24)))
        for (bytes, says) in [([UInt8](), "byte 0: not a readable PNG: no bytes"),
                              ([1, 2, 3], "byte 0: not a readable PNG: it does not start with the 8-byte PNG signature"),
                              (Array(png.prefix(png.count - 20)), "not a readable PNG")] {
            XCTAssertThrowsError(try PNGFile.decode(bytes, name: "tile")) { error in
                let message = "\(error)"
                XCTAssertTrue(message.hasPrefix("tile") && message.contains(says), message)
            }
        }
    }

    /// Band by band (any band height) or whole: the same bytes.
    func testBandsGiveTheBytesOfTheWholeImage() throws {
        var rng = SplitMix64(seed: 5)
        let (w, h) = (700, 613)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) where rng.next() % 5 == 0 {
            pixels[i] = 200; pixels[i + 1] = UInt8(truncatingIfNeeded: rng.next()); pixels[i + 3] = 255
        }
        let image = Image(width: w, height: h, pixels: pixels)
        let whole = try PNGFile.encode(image)
        let dir = try TestSupport.temporaryDirectory(self)
        for band in [1, 7, 93, 613] {
            // Opaque or transparent pixels: premultiplied is the same as straight.
            let written = try Self.writtenInBands(pixels, width: w, height: h, band: band,
                                                  to: dir.appendingPathComponent("b\(band).png").path)
            XCTAssertEqual(written, whole, "bands of \(band) rows")
        }
        // No larger than libpng at level 1 with its own filters.
        XCTAssertLessThanOrEqual(whole.count, try PNGFile.encodeWithLibpng(image, level: 1, fast: false).count)
    }

    /// Overlapping soft stamps of every colour on a dark background, the frame Paeth rows are
    /// for: it decodes to its pixels, band by band gives the same bytes, and the default is
    /// within a tenth of libpng level 6's size (with None, Sub and Up alone: 115 324 bytes
    /// against 88 126, 1.31×).
    func testSoftStampsCodeWithinATenthOfLibpngLevelSix() throws {
        var rng = SplitMix64(seed: 9)
        func unit() -> Double { Double(rng.next() >> 11) / Double(1 << 53) }
        let (w, h) = (320, 200)
        var rgb = [Double](repeating: 0, count: w * h * 3)
        for i in stride(from: 0, to: rgb.count, by: 3) { rgb[i] = 16; rgb[i + 1] = 16; rgb[i + 2] = 20 }
        for _ in 0..<(w * h / 200) {
            let cx = unit() * Double(w), cy = unit() * Double(h), radius = 16.0
            let colour = [unit() * 255, unit() * 255, unit() * 255], alpha = 0.2 + 0.8 * unit()
            for y in max(0, Int(cy - radius))..<min(h, Int(cy + radius) + 1) {
                for x in max(0, Int(cx - radius))..<min(w, Int(cx + radius) + 1) {
                    let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                    let fall = max(0, 1 - (dx * dx + dy * dy).squareRoot() / radius)
                    let cover = fall * fall * alpha
                    for c in 0..<3 { rgb[(y * w + x) * 3 + c] += (colour[c] - rgb[(y * w + x) * 3 + c]) * cover }
                }
            }
        }
        var pixels = [UInt8](repeating: 255, count: w * h * 4)
        for p in 0..<(w * h) { for c in 0..<3 { pixels[p * 4 + c] = UInt8(rgb[p * 3 + c].rounded()) } }
        let image = Image(width: w, height: h, pixels: pixels)
        let png = try PNGFile.encode(image)
        XCTAssertEqual(try PNGFile.decode(png).image.pixels, pixels)
        let six = try PNGFile.encodeWithLibpng(image, level: 6, fast: false).count
        XCTAssertLessThanOrEqual(Double(png.count), 1.1 * Double(six), "\(png.count) bytes against libpng level 6's \(six)")
        // Rows handed over thirteen at a time: the same file.
        let path = try TestSupport.temporaryDirectory(self).appendingPathComponent("soft.png").path
        XCTAssertEqual(try Self.writtenInBands(pixels, width: w, height: h, band: 13, to: path), png)
    }

    /// The paper background of the fixtures scaled up four times (bilinear), as a sketch's
    /// ground at 1276×956: each row is best told from the row above it. A segment's first row
    /// is filtered against the last row of the segment before, so the image codes smaller than
    /// its segments each coded alone (as images of their own, whose first rows have no row
    /// above); handed over in bands that cut across segments, the file is the same.
    func testASegmentsFirstRowIsFilteredAgainstTheRowAbove() throws {
        let (pixels, w, h) = try Self.paperGround()
        let per = PNGSegments.rows(width: w, channels: 4)
        XCTAssertGreaterThan(h, 8 * per, "several segments")
        let png = try PNGFile.encode(Image(width: w, height: h, pixels: pixels))
        XCTAssertEqual(try PNGFile.decode(png).image.pixels, pixels)
        var alone = 0
        for y in stride(from: 0, to: h, by: per) {
            let rows = min(per, h - y)
            alone += try PNGFile.encode(Image(width: w, height: rows, pixels: Array(pixels[(y * w * 4)..<((y + rows) * w * 4)]))).count
        }
        // Measured: 22 294 bytes against 24 411 (with each segment's first row filtered alone,
        // the image came to 23 142).
        XCTAssertLessThanOrEqual(Double(png.count), 0.92 * Double(alone), "\(png.count) bytes against its segments' \(alone) alone")
        let path = try TestSupport.temporaryDirectory(self).appendingPathComponent("paper.png").path
        XCTAssertEqual(try Self.writtenInBands(pixels, width: w, height: h, band: 13, to: path), png)
    }

    /// The paper background of the fixtures scaled up four times (bilinear): 1276×956, opaque.
    static func paperGround() throws -> (pixels: [UInt8], width: Int, height: Int) {
        let paper = try PNGFile.read(path: TestSupport.fixtures.appendingPathComponent("backgrounds/paper-320x240.png").path).image
        let k = 4
        let (w, h) = ((paper.width - 1) * k, (paper.height - 1) * k)
        var pixels = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            let (gy, fy) = (y / k, Double(y % k) / Double(k))
            for x in 0..<w {
                let (gx, fx) = (x / k, Double(x % k) / Double(k))
                for c in 0..<3 {
                    func at(_ i: Int, _ j: Int) -> Double { Double(paper.pixels[((gy + j) * paper.width + gx + i) * 4 + c]) }
                    let v = (at(0, 0) * (1 - fx) + at(1, 0) * fx) * (1 - fy) + (at(0, 1) * (1 - fx) + at(1, 1) * fx) * fy
                    pixels[(y * w + x) * 4 + c] = UInt8(v.rounded())
                }
            }
        }
        return (pixels, w, h)
    }

    /// The same paper ground: runs leave few literals in each segment, and where a segment's
    /// two 4 KiB sample slices hold runs alone the sample says copies do not pay, yet copies of
    /// earlier rows code it smaller. Where runs left a sixteenth of a segment's bytes or fewer,
    /// level 1 tries copies without asking the sample, so it writes what level 2 (copies always
    /// tried) writes: 22 294 bytes, where following the sample alone wrote 24 130.
    func testSegmentsOfFewLiteralsTryCopiesWithoutTheSample() throws {
        let (pixels, w, h) = try Self.paperGround()
        let image = Image(width: w, height: h, pixels: pixels)
        let one = try PNGFile.encode(image, compression: 1), two = try PNGFile.encode(image, compression: 2)
        XCTAssertEqual(one, two)
        XCTAssertEqual(try PNGFile.decode(one).image.pixels, pixels)
    }

    /// `pixels` (premultiplied) handed to a `PNGBandWriter` at `path` `band` rows at a time:
    /// the file's bytes.
    static func writtenInBands(_ pixels: [UInt8], width w: Int, height h: Int, band: Int, to path: String) throws -> [UInt8] {
        let writer = try PNGBandWriter(path: path, width: w, height: h)
        for y in stride(from: 0, to: h, by: band) {
            var rows = Array(pixels[(y * w * 4)..<(min(h, y + band) * w * 4)])
            try writer.write(premultiplied: &rows)
        }
        try writer.finish()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Rule 110 from a random row, a generation a row, black and white (ffmpeg's `cellauto`).
    static func cellularAutomaton(width w: Int, height h: Int, seed: UInt64) -> Image {
        var rng = SplitMix64(seed: seed)
        var cells = (0..<w).map { _ in rng.next() % 2 == 1 }
        var pixels = [UInt8](repeating: 255, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w where !cells[x] { for c in 0..<3 { pixels[(y * w + x) * 4 + c] = 0 } }
            cells = (0..<w).map { x in
                let around = (cells[(x + w - 1) % w] ? 4 : 0) | (cells[x] ? 2 : 0) | (cells[(x + 1) % w] ? 1 : 0)
                return (110 >> around) & 1 == 1
            }
        }
        return Image(width: w, height: h, pixels: pixels)
    }

    /// A cellular automaton (rule 110 from a random row, a row a generation, as ffmpeg's
    /// `cellauto` draws): its repeats are short and near one another, where libpng level 1
    /// finds the next repeat starting inside the one before. The default is no larger.
    func testTheDefaultIsNoLargerThanLibpngLevel1OnACellularAutomaton() throws {
        let image = Self.cellularAutomaton(width: 320, height: 518, seed: 1), pixels = image.pixels
        let png = try PNGFile.encode(image)
        XCTAssertEqual(try PNGFile.decode(png).image.pixels, pixels)
        let libpng = try PNGFile.encodeWithLibpng(image, level: 1, fast: false).count
        XCTAssertLessThanOrEqual(png.count, libpng, "the default's \(png.count) bytes against libpng level 1's \(libpng)")
    }

    /// The same automaton, larger: its longer repeats lie farther back than the newest place
    /// of their first four bytes, where a search one place deep stops. Searched 8 places deep
    /// (levels 1 and 2) and 32 (level 3), the copies code it well below libpng level 1's size.
    func testDeeperSearchesFindTheLongerRepeatsOfACellularAutomaton() throws {
        let image = Self.cellularAutomaton(width: 640, height: 400, seed: 5), pixels = image.pixels
        let libpng = try PNGFile.encodeWithLibpng(image, level: 1, fast: false).count
        var sizes: [Int] = []
        for level: Int32 in [1, 2, 3] {
            let png = try PNGFile.encode(image, compression: level)
            XCTAssertEqual(try PNGFile.decode(png).image.pixels, pixels, "level \(level)")
            sizes.append(png.count)
        }
        // Measured: 63 387, 63 387 and 54 787 bytes against libpng level 1's 87 497 and level
        // 6's 44 235; searched one place deep, every level came to 83 988.
        for (level, size) in zip([1, 2], sizes) {
            XCTAssertLessThanOrEqual(Double(size), 0.8 * Double(libpng), "level \(level): \(size) bytes against libpng level 1's \(libpng)")
        }
        XCTAssertLessThanOrEqual(Double(sizes[2]), 0.7 * Double(libpng), "level 3: \(sizes[2]) bytes against libpng level 1's \(libpng)")
        XCTAssertLessThan(sizes[2], sizes[0], "level 3 searches deeper than level 1")
    }

    /// A texture that repeats every 37 pixels across and 23 down, noise within: runs find
    /// nothing in it, and every fast level codes it within 5 % of libpng level 1 (whose hash
    /// chains find a few more repeats) with copies from farther back: levels 2 and 3 always
    /// look for them, level 1 because a sample of the segment shows that they pay. Each
    /// decodes to its pixels.
    func testEveryFastLevelFindsRepeatsFartherBackInATexture() throws {
        var rng = SplitMix64(seed: 17)
        let patch = (0..<(37 * 23 * 4)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let (w, h) = (320, 200)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                for c in 0..<4 { pixels[(y * w + x) * 4 + c] = patch[((y % 23) * 37 + x % 37) * 4 + c] }
            }
        }
        let image = Image(width: w, height: h, pixels: pixels)
        let libpng = try PNGFile.encodeWithLibpng(image, level: 1, fast: false).count
        XCTAssertLessThan(libpng, pixels.count / 4, "the texture's repeats are there to find")
        for level: Int32 in [1, 2, 3] {
            let png = try PNGFile.encode(image, compression: level)
            XCTAssertEqual(try PNGFile.decode(png).image.pixels, pixels, "level \(level)")
            XCTAssertLessThanOrEqual(Double(png.count), 1.05 * Double(libpng),
                                     "level \(level): \(png.count) bytes against libpng level 1's \(libpng)")
        }
    }

    /// A picture whose segments differ: a tiled texture in the first, sparse dots after it
    /// (where copies gain nothing), a last segment cut short. Level 1 samples each segment on
    /// its own, so the bytes are the same on one core or every core and band by band, they
    /// decode to the pixels, and the texture's copies bring the whole within 5 % of libpng
    /// level 1 (with runs alone it would be larger by far).
    func testSegmentsOfTextureAndDotsGiveTheSameBytesHoweverTheyAreEncoded() throws {
        var rng = SplitMix64(seed: 23)
        let w = 640, segment = PNGSegments.rows(width: w, channels: 4), h = 3 * segment + 7
        let patch = (0..<(29 * 17 * 4)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * w + x) * 4
                if y < segment + segment / 2 {
                    for c in 0..<3 { pixels[i + c] = patch[((y % 17) * 29 + x % 29) * 4 + c] }
                    pixels[i + 3] = 255  // opaque (and the dots' ground transparent): premultiplied is straight
                } else if rng.next() % 7 == 0 {
                    pixels[i] = 30; pixels[i + 1] = UInt8(truncatingIfNeeded: rng.next()); pixels[i + 3] = 255
                }
            }
        }
        let image = Image(width: w, height: h, pixels: pixels)
        let whole = try PNGFile.encode(image, compression: 1, onEveryCore: true)
        XCTAssertEqual(try PNGFile.encode(image, compression: 1, onEveryCore: false), whole)
        XCTAssertEqual(try PNGFile.decode(whole).image.pixels, pixels)
        let dir = try TestSupport.temporaryDirectory(self)
        for band in [1, 57, h] {
            let written = try Self.writtenInBands(pixels, width: w, height: h, band: band,
                                                  to: dir.appendingPathComponent("t\(band).png").path)
            XCTAssertEqual(written, whole, "bands of \(band) rows")
        }
        let libpng = try PNGFile.encodeWithLibpng(image, level: 1, fast: false).count
        XCTAssertLessThanOrEqual(Double(whole.count), 1.05 * Double(libpng), "\(whole.count) bytes against libpng level 1's \(libpng)")
    }

    /// Matches as dense as levels 2 and 3 can make them: more than one every four bytes, where
    /// a coder that kept room for one every four would write past its buffer (`make sanitize`
    /// catches that). One segment of grey rows whose Sub-filtered bytes are blocks of the same
    /// 2 980 four-byte groups in the same order, in turn each group followed by three more of
    /// its last byte (a copy of four, then a run of three: two matches in seven bytes) and each
    /// group alone (a copy of four a match). A group's last copy lies in the block before,
    /// followed by something else, so every copy stops at four bytes; a block and the next of
    /// its kind lie more than the 32 KiB window apart, so no longer copy reaches. The groups
    /// fall in different slots of the coder's table of where four bytes were last seen (its
    /// hash of them, reproduced here: 14 bits of the four bytes times 2 654 435 761; the coder
    /// enters the places inside a longer copy there too, never inside a copy of four), and their
    /// bytes are small, so that Sub beats None and Up.
    func testTheDensestCopiesAndRunsDecode() throws {
        var rng = SplitMix64(seed: 23)
        func small() -> UInt8 { let v = Int(rng.next() % 60); return v < 30 ? UInt8(v + 1) : UInt8(256 - (v - 29)) }
        var groups: [[UInt8]] = [], slots = Set<UInt32>()
        while groups.count < 2_980 {
            let g = (0..<4).map { _ in small() }
            let word = UInt32(g[0]) | UInt32(g[1]) << 8 | UInt32(g[2]) << 16 | UInt32(g[3]) << 24
            let slot = (word &* 2_654_435_761) >> 18
            guard g[2] != g[3], g[0] != g[3], g[0] != (groups.last?[3] ?? 0), !slots.contains(slot) else { continue }
            slots.insert(slot)
            groups.append(g)
        }
        // One segment: rows of 16 384 bytes with the filter byte, 16 of them (256 KiB).
        let (width, height) = (16_383, 16)
        XCTAssertEqual(PNGSegments.rows(width: width, channels: 1), height)
        var filtered: [UInt8] = []
        filtered.reserveCapacity(width * height + 8)
        var block = 0
        while filtered.count < width * height {
            for g in groups { filtered += block % 2 == 0 ? g + [g[3], g[3], g[3]] : g }
            block += 1
        }
        // Each row the running sum of its filtered bytes, so that Sub gives them back.
        var pixels = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            var sum: UInt8 = 0
            for x in 0..<width {
                sum &+= filtered[y * width + x]
                pixels[y * width + x] = sum
            }
        }
        let one = try PNGFile.encodeGrey(pixels, width: width, height: height, compression: 1)
        for level: Int32 in [2, 3] {
            let png = try PNGFile.encodeGrey(pixels, width: width, height: height, compression: level)
            XCTAssertEqual(try PNGFile.decode(png).image.pixels, pixels.flatMap { [$0, $0, $0, 255] }, "level \(level)")
            // The copies were taken: runs alone code it a quarter larger at least.
            XCTAssertLessThan(Double(png.count), 0.8 * Double(one.count), "level \(level): \(png.count) against \(one.count)")
        }
    }

    /// A segment's codes are built from a sample of its literals past the first 16 384: a byte
    /// value the sample never sees must still have a code. Rows of 4 095 grey pixels (4 096
    /// bytes with the filter byte, so a byte's place in the segment is fixed) of 0s and 1s in
    /// turn, with a 254 every sixteen bytes past the first eight rows: no run shortens them
    /// and no filter beats None (the 254 is −2 to the filter's sums), so the 254s reach the
    /// coder where they lie. Placed where the sample does not look (the last twelve bytes of
    /// every sixteen), and where it does, the image decodes to its pixels.
    func testAByteTheSampleMissesStillHasACode() throws {
        let width = 4_095, height = 40
        for offset in [8, 0] {
            var pixels = [UInt8](repeating: 0, count: width * height)
            for y in 0..<height {
                for x in 0..<width {
                    // Byte x of row y lies at y × 4096 + 1 + x in the segment's filtered rows.
                    pixels[y * width + x] = y >= 8 && (1 + x) % 16 == offset ? 254 : UInt8((x + y) & 1)
                }
            }
            XCTAssertEqual(pixels.filter { $0 == 254 }.count, 32 * (offset == 8 ? 256 : 255), "offset \(offset)")
            let png = try PNGFile.encodeGrey(pixels, width: width, height: height, compression: 1)
            XCTAssertEqual(try PNGFile.decode(png).image.pixels, pixels.flatMap { [$0, $0, $0, 255] }, "offset \(offset)")
        }
    }

    /// The CRC of every chunk (carry-less multiplication where the CPU has it) against the
    /// definition, bit by bit: every length from 0 to 300 (the vector steps' edges), at three
    /// alignments, continued from a CRC already begun, and a long buffer.
    func testTheCRCIsZlibsAtEveryLengthAndAlignment() {
        func reference(_ crc: UInt32, _ bytes: ArraySlice<UInt8>) -> UInt32 {
            var c = ~crc
            for b in bytes {
                c ^= UInt32(b)
                for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
            }
            return ~c
        }
        var rng = SplitMix64(seed: 17)
        let bytes = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        bytes.withUnsafeBufferPointer { all in
            for start in 0..<3 {
                for length in 0...300 {
                    let seed = UInt32(truncatingIfNeeded: rng.next())
                    let got = UInt32(truncatingIfNeeded: stp_crc32(UInt(seed), all.baseAddress! + start, length))
                    XCTAssertEqual(got, reference(seed, bytes[start..<(start + length)]), "\(length) bytes from \(start)")
                }
            }
            let got = UInt32(truncatingIfNeeded: stp_crc32(0, all.baseAddress! + 1, 69_999))
            XCTAssertEqual(got, reference(0, bytes[1...]))
        }
        // "IEND" with no data: the CRC every PNG ends with.
        XCTAssertEqual(UInt32(truncatingIfNeeded: stp_crc32(0, Array("IEND".utf8), 4)), 0xAE42_6082)
    }
}
