import Foundation
import Stipple

/// A seeded generator of whole `stipple` runs over the current grammar: scripts with every
/// brush-mode key and value (and values just outside each range), session entries, events
/// lines with undo, redo and clear, and command lines for render (--frames extremes,
/// --shard, --speed, --tile), bake (--frames, --shard, --speed, --events), bisect, compare
/// (--metric, --window, --json), stamps, describe, convert and ink (CLIGrammar+Ink.swift). Each case knows when it must
/// be refused (`mustFail`): a value the docs put out of range, which no run may accept.
struct CLIGrammar {
    /// The project's SplitMix64: the same cases for the same seed on every machine.
    struct Random {
        var generator: SplitMix64
        mutating func next() -> UInt64 { generator.next() }
        mutating func int(_ range: ClosedRange<Int>) -> Int {
            range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
        }
        mutating func chance(_ p: Double) -> Bool { Double(next() % 1_000_000) / 1_000_000 < p }
        mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
        mutating func double(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + (range.upperBound - range.lowerBound) * Double(next() % 1_000_001) / 1_000_000
        }
    }

    /// One run: the files it starts with, its arguments, and whether it must be refused.
    struct Case: Sendable {
        var kind: String
        var arguments: [String]
        var files: [String: Data]
        var mustFail: String?
    }

    var random: Random

    init(seed: UInt64) { random = Random(generator: SplitMix64(seed: seed)) }

    // MARK: Numbers

    /// Whole numbers at the edges of every bound and of Int, as typed.
    static let wholeEdges = ["0", "1", "2", "-1", "16777215", "16777216", "99999999999", "2147483647", "4294967296",
                             "4611686018427387904", "9223372036854775806", "9223372036854775807", "9223372036854775808",
                             "-9223372036854775808", "1e3", "0x10", "+1", "", " 1", "1 ", "١"]
    /// Real numbers at the edges of doubles and floats, as typed.
    static let realEdges = ["0", "-0", "1", "0.5", "20", "1e-300", "-1e-300", "5e-324", "1e-308", "1e308", "1.7976931348623157e308",
                            "1e309", "nan", "inf", "-inf", "1.00000000000000001", "3.4028235e38", "3.5e38", "1e-6", "2e-6", ""]

    mutating func whole() -> String { random.chance(0.6) ? random.pick(Self.wholeEdges) : String(random.int(0...40)) }
    mutating func real() -> String { random.chance(0.6) ? random.pick(Self.realEdges) : String(random.double(0...4)) }

    // MARK: Scripts

    /// A JSON number that is mostly in a range, sometimes just outside it (`bad` says so).
    mutating func value(_ good: [String], _ bad: [String], _ reason: String, _ failures: inout [String]) -> String {
        if random.chance(0.07) {
            failures.append(reason)
            return random.pick(bad)
        }
        return random.pick(good)
    }

    mutating func modeKeys(_ failures: inout [String]) -> String {
        var keys: [String] = []
        let effect = random.chance(0.25)
        if effect {
            keys.append(#""effect": "\#(value(["lighten", "darken", "saturate", "desaturate", "soften", "sharpen"].map { $0 }, ["blur", "Lighten", ""], "unknown effect", &failures))""#)
        } else if random.chance(0.5) {
            keys.append(#""blend": "\#(value(["over", "erase", "multiply", "screen"], ["add", "OVER"], "unknown blend", &failures))""#)
        }
        if random.chance(0.4) {
            keys.append(#""strokeOpacity": \#(value(["0", "1", "0.5", "1.00000000000000001", "1e-300", "-0"], ["1.00000001", "-1e-300", "2", "-0.5"], "strokeOpacity out of 0…1", &failures))"#)
        }
        if random.chance(0.3) {
            keys.append(random.chance(0.3) ? #""edges": {}"#
                : #""edges": {"tolerance": \#(value(["0", "32", "255", "1e2"], ["256", "-1", "1.5", "1e300"], "edges tolerance out of 0…255", &failures))}"#)
        }
        let erases = keys.contains(#""blend": "erase""#)
        if random.chance(0.35) {
            if effect || erases { failures.append("a shadow on an effect or an erase stroke") }
            var parts: [String] = []
            if random.chance(0.7) {
                parts.append(#""offset": [\#(value(["0", "4", "-4096", "4096"], ["4097", "1.5"], "shadow offset out of ±4096", &failures)), \#(random.pick(["0", "3", "-2"]))]"#)
            }
            if random.chance(0.7) {
                parts.append(#""blur": \#(value(["0", "3", "64", "-0", "1e-300"], ["-1e-300", "64.0001", "-1", "1e9"], "shadow blur out of 0…64", &failures))"#)
            }
            if random.chance(0.6) {
                let good = ["\"#00000080\"", "\"#ff3b30\"", "[0, 0, 1, 0.5]", "[1, 1, 1, 1]"]
                let bad = ["[0, 0, 1]", "[0, 0, 1, 2]", "\"red\"", "[0, 0, 1, -1e-300]"]
                parts.append("\"color\": " + value(good, bad, "shadow colour not a colour", &failures))
            }
            keys.append(#""shadow": {\#(parts.joined(separator: ", "))}"#)
        }
        return keys.isEmpty ? "" : ", " + keys.joined(separator: ", ")
    }

    mutating func stroke(_ n: Int, _ failures: inout [String]) -> String {
        var t = random.chance(0.2) ? random.double(0...3) : 0
        let samples = (0..<random.int(1...6)).map { _ -> String in
            t += random.double(0...0.3)
            return #"{"x": \#(random.int(-10...70)), "y": \#(random.int(-10...70)), "t": \#(t), "pressure": \#(random.double(0...1))}"#
        }
        let radius = random.pick(["2", "6", "0.5", "20"])
        return ##"{"brush": "b\##(n % 2)", "color": "#ff3b30", "radius": \##(radius), "points": [\##(samples.joined(separator: ", "))]\##(modeKeys(&failures))}"##
    }

    mutating func session(_ strokes: Int, _ failures: inout [String]) -> String {
        let t = value(["0", "0.5", "1", "2"], ["600000", "1e15", "-600000"], "a session entry past 2^24 frames", &failures)
        switch random.int(0...2) {
        case 0: return #"{"undo": \#(random.pick(["1", "1", "2"])), "t": \#(t)}"#
        case 1: return #"{"redo": 1, "t": \#(t)}"#
        default: return #"{"clear": true, "t": \#(t)}"#
        }
    }

    /// A script of a few entries on a small canvas; `baked` leaves the background out (a bake's video is it).
    mutating func script(baked: Bool, _ failures: inout [String]) -> String {
        let side = baked ? 16 : random.pick([8, 16, 32, 64])
        var draw: [String] = []
        var strokes = 0
        for _ in 0..<random.int(0...4) {
            if strokes > 0 && random.chance(0.2) {
                draw.append(session(strokes, &failures))
            } else if random.chance(0.3) {
                draw.append(#"{"brush": "b0", "stamps": [[\#(random.int(0...side)), \#(random.int(0...side)), 3, 0, 0, 0.2, 0.6, 1, 1]]\#(modeKeys(&failures))}"#)
                strokes += 1
            } else {
                draw.append(stroke(strokes, &failures))
                strokes += 1
            }
        }
        let canvas = baked ? (random.chance(0.5) ? "" : #""canvas": {"width": 16, "height": 16}, "#)
            : ##""canvas": {"width": \##(side), "height": \##(side), "background": "#101014"}, "##
        let maxAge = random.pick(["0", "0", "30", "1e-300"])
        if maxAge == "1e-300" { failures.append("a maxAge that rounds to 0 as a float") }
        return #"{\#(canvas)"maxAge": \#(maxAge), "#
            + #""brushes": {"b0": {"builtin": "soft-round", "size": 32}, "b1": {"builtin": "hard-round", "size": 16}}, "#
            + #""draw": [\#(draw.joined(separator: ", "))]}"#
    }

    /// Bytes of `text` with a few flipped, cut or doubled: a broken file that must be refused or read.
    mutating func mangle(_ text: String) -> Data {
        var bytes = Array(text.utf8)
        for _ in 0..<random.int(1...3) where !bytes.isEmpty {
            let i = random.int(0...(bytes.count - 1))
            switch random.int(0...3) {
            case 0: bytes[i] = UInt8(truncatingIfNeeded: random.next())
            case 1: bytes.removeSubrange(i...)
            case 2: bytes.insert(contentsOf: bytes[i...].prefix(8), at: i)
            default: bytes[i] = random.pick(Array("{}[],:\"0-e.".utf8))
            }
        }
        return Data(bytes)
    }

    /// Events lines: strokes started, moved and ended, undo, redo and clear, times in order or not.
    mutating func events(_ failures: inout [String]) -> String {
        var lines: [String] = []
        var t = 0.0
        var open: [Int] = []
        for i in 0..<random.int(0...8) {
            t += random.double(0...0.2)
            if !lines.isEmpty, random.chance(0.05) { failures.append("events out of order"); t -= 1 }
            let time = random.chance(0.05) ? random.pick(["1e15", "600000"]) : String(t)
            if time != String(t) { failures.append("an event past 2^24 frames") }
            if let s = open.last, random.chance(0.4) {
                lines.append(#"{"t": \#(time), "end": \#(s)}"#)
                open.removeLast()
            } else if random.chance(0.2) {
                lines.append(random.pick([#"{"t": \#(time), "undo": 1}"#, #"{"t": \#(time), "redo": 1}"#, #"{"t": \#(time), "clear": true}"#]))
            } else if let s = open.last, random.chance(0.5) {
                lines.append(#"{"t": \#(time), "stroke": \#(s), "x": \#(random.int(0...16)), "y": \#(random.int(0...16))}"#)
            } else {
                open.append(i)
                lines.append(#"{"t": \#(time), "stroke": \#(i), "x": 4, "y": 4, "brush": "b0", "radius": 3}"#)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Command lines

    /// `A...B`: small valid ranges (a run stays short), the ends of Int, and misspellings.
    mutating func frames(_ failures: inout [String]) -> String {
        switch random.int(0...9) {
        case 0...3:
            let a = random.int(0...30)
            return "\(a)...\(a + random.int(0...3))"
        case 4: return "all"
        case 5:
            failures.append("--frames past the last frame")
            return random.pick(["0...9223372036854775807", "9223372036854775806...9223372036854775807", "0...16777216",
                                "16777216...16777216"])
        case 6:
            failures.append("--frames with spaces")
            return random.pick(["0...3 ", " 0...3", "0 ...3"])
        case 7:
            failures.append("--frames malformed")
            return random.pick(["3...0", "-1...2", "0..3", "0..<3", "0-3", "", "a...b", "1e3...2e3", "0...3...4"])
        case 8:
            failures.append("--frames over the frames a run may write")
            return random.pick(["0...100000", "16000000...16777215"])
        default:
            return "16777214...16777215"
        }
    }

    mutating func shard(_ failures: inout [String]) -> String {
        switch random.int(0...5) {
        case 0...2:
            let n = random.int(1...5)
            return "\(random.int(1...n))/\(n)"
        case 3:
            return random.pick(["4611686018427387904/4611686018427387904", "1/9223372036854775807", "9223372036854775807/9223372036854775807"])
        default:
            failures.append("--shard malformed")
            return random.pick(["0/2", "3/2", " 1/2", "1/2 ", "1/0", "-1/2", "1/", "/2", "1/2/3", "9223372036854775808/9223372036854775808"])
        }
    }

    mutating func speed(_ failures: inout [String]) -> String {
        let s = real()
        if let v = Double(s), v > 0, v.isFinite {} else { failures.append("--speed not a number above 0") }
        return s
    }

    mutating func next() -> Case {
        var failures: [String] = []
        var files: [String: Data] = [:]
        var args: [String]
        let kind = random.pick(["render", "render", "render-frames", "render-frames", "bake", "bake", "bisect", "compare",
                                "compare", "stamps", "describe", "describe-video", "convert", "ink", "ink", "typo"])
        let baked = kind == "bake" || kind == "describe-video"
        let script = script(baked: baked, &failures)
        if random.chance(0.08) {
            files["s.json"] = mangle(script)
            failures.removeAll()  // a mangled script may still be a valid one
        } else {
            files["s.json"] = Data(script.utf8)
        }
        // Commands that never read the script cannot refuse it.
        if ["compare", "convert", "ink"].contains(kind) { failures.removeAll() }
        files["in.y4m"] = Self.video(frames: random.pick([0, 1, 3, 6]), side: 16)
        files["a.png"] = Self.png
        files["b.png"] = random.chance(0.5) ? Self.png : Self.otherPNG
        switch kind {
        case "render":
            args = ["render", "s.json", "-o", random.pick(["out.png", "out.png", "s.json", "out.mp4", "out.jpg"])]
            if args[3] == "s.json" { failures.append("-o names an input") }
            if args[3] == "out.mp4" || args[3] == "out.jpg" { failures.append("-o not a PNG without --frames") }
            if random.chance(0.4) {
                let f = whole()
                if let n = Int(f), (0...16_777_215).contains(n) {} else { failures.append("--frame out of range") }
                args += ["--frame", f]
            }
            if random.chance(0.3) {
                let t = random.pick(["1", "7", "16", "16384", "16385", "0", "-1", "4294967296"])
                if let n = Int(t), (1...16384).contains(n) {} else { failures.append("--tile out of range") }
                args += ["--tile", t]
            }
            if random.chance(0.2) {
                let c = random.pick(["0", "9", "10", "-1"])
                if c == "10" || c == "-1" { failures.append("--compression out of range") }
                args += ["--compression", c]
            }
        case "render-frames":
            args = ["render", "s.json", "-o", random.pick(["frames", "frames", "out.y4m", "-", "s.json"]), "--frames", frames(&failures)]
            if args[3] == "s.json" { failures.append("-o names an input") }
            if random.chance(0.3) {
                // A shard is held to the frames a run may write, not the whole range.
                failures.removeAll { $0 == "--frames over the frames a run may write" }
                args += ["--shard", shard(&failures)]
            }
            if random.chance(0.3) { args += ["--speed", speed(&failures)] }
            if random.chance(0.15) { args += ["--tile", random.pick(["8", "16385"])] }
            if args.contains("16385") { failures.append("--tile out of range") }
            if random.chance(0.2) { args.append(random.pick(["--overwrite", "--clean"])) }
        case "bake":
            args = ["bake", "s.json", "--video", random.pick(["in.y4m", "in.y4m", "missing.y4m"]), "-o",
                    random.pick(["out.y4m", "out.y4m", "in.y4m", "s.json"])]
            if args[3] == "missing.y4m" { failures.append("a missing video") }
            if args[5] != "out.y4m" { failures.append("-o names an input") }
            if random.chance(0.3) { args += ["--frames", frames(&failures)] }
            if random.chance(0.3) { args += ["--shard", shard(&failures)] }
            if random.chance(0.3) { args += ["--speed", speed(&failures)] }
            if random.chance(0.4) {
                files["ev.jsonl"] = random.chance(0.1) ? mangle(events(&failures)) : Data(events(&failures).utf8)
                args += ["--events", "ev.jsonl"]
            }
        case "bisect":
            args = ["bisect", "s.json", "--golden", random.pick(["a.png", "b.png", "missing.png"])]
            if args[3] == "missing.png" { failures.append("a missing golden") }
            if random.chance(0.5) {
                let f = whole()
                if let n = Int(f), (0...16_777_215).contains(n) {} else { failures.append("--frame out of range") }
                args += ["--frame", f]
            }
            if random.chance(0.3) { args += ["--diff", random.pick(["d.png", args[3], "s.json"])] }
            if args.contains("--diff") && args.last != "d.png" { failures.append("--diff names an input") }
        case "compare":
            args = ["compare", "a.png", "b.png"]
            if random.chance(0.4) {
                let w = whole()
                if let n = Int(w), n >= 1 {} else { failures.append("--window below 1 or not whole") }
                args += ["--window", w]
            }
            if random.chance(0.3) {
                args += ["--perceptual", random.pick(["0.1", "0", "1", "1.5", "-0.1", "nan"]), "--metric", random.pick(["yiq", "oklab", "lab"])]
                if ["1.5", "-0.1", "nan", "lab"].contains(where: args.contains) { failures.append("--perceptual or --metric out of range") }
            } else if random.chance(0.5) {
                let k = random.pick(["0", "2", "255", "256", "-1"])
                if k == "256" || k == "-1" { failures.append("--max-channel-diff out of range") }
                args += ["--max-channel-diff", k]
            }
            if random.chance(0.3) { args += ["--max-pixels", random.pick(["0", "10", "1%", "100%", "101%", "-1", "x"])] }
            if ["101%", "-1", "x"].contains(where: { args.last == $0 }) { failures.append("--max-pixels out of range") }
            if random.chance(0.4) { args.append("--json") }
            if random.chance(0.2) { args += ["--diff", random.pick(["d.png", "a.png"])] }
            if args.last == "a.png" && args.dropLast().last == "--diff" { failures.append("--diff names an input") }
        case "stamps":
            let f = whole()
            args = ["stamps", "s.json", "--frame", f, "-o", random.pick(["out.sketchpoints", "out.json", "out.txt", "s.json"])]
            if let n = Int(f), (0...16_777_215).contains(n) {} else { failures.append("--frame out of range") }
            if args[5] == "out.txt" || args[5] == "s.json" { failures.append("bad stamps output") }
        case "ink":
            args = inkRender(&files, &failures)
        case "describe":
            args = ["describe", "s.json"] + (random.chance(0.5) ? ["--json"] : [])
        case "describe-video":
            args = ["describe", "s.json", "--video", random.pick(["in.y4m", "in.y4m", "missing.y4m"])]
            if args[3] == "missing.y4m" { failures.append("a missing video") }
            if random.chance(0.5) { args.append("--json") }
        case "convert":
            files["st.json"] = random.chance(0.5) ? Data("[[1, 2, 3, 0, 0, 1, 1, 1, 1]]".utf8) : mangle("[[1, 2, 3, 0, 0, 1, 1, 1, 1]]")
            args = ["convert", "st.json", "-o", random.pick(["st.sketchpoints", "st.json"])]
            if args[3] == "st.json" { failures.append("-o names the input") }
        default:
            args = [random.pick(["rendr", "bak", "comapre", "x.json", "Render"]), "s.json", "-o", "x.png"]
            failures.append("an unknown command")
        }
        return Case(kind: kind, arguments: args, files: files, mustFail: failures.first)
    }

    // MARK: Fixtures

    static func video(frames: Int, side: Int) -> Data {
        var bytes = Array("YUV4MPEG2 W\(side) H\(side) F30:1 Ip A1:1 C420jpeg\n".utf8)
        for f in 0..<frames {
            bytes += Array("FRAME\n".utf8) + [UInt8](repeating: UInt8(40 + f * 20), count: side * side + side * side / 2)
        }
        return Data(bytes)
    }

    /// 16×16 PNGs (a and b), b with a square of other pixels.
    static let png = pngBytes { _, _ in [20, 20, 20, 255] }
    static let otherPNG = pngBytes { x, y in (x < 8 && y < 8) ? [220, 40, 40, 255] : [20, 20, 20, 255] }

    static func pngBytes(_ pixel: (Int, Int) -> [UInt8]) -> Data {
        let pixels = (0..<256).flatMap { pixel($0 % 16, $0 / 16) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("grammar-\(UUID().uuidString).png").path
        defer { unlink(path) }
        try? PNGFile.write(Image(width: 16, height: 16, pixels: pixels), to: path)
        return (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
    }
}
