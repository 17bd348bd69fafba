import Foundation

/// The ink part of the grammar: Quick, Draw! `.ndjson` files and InkML, well formed, ugly
/// (one-point and duplicate samples, huge and negative coordinates, unknown channels,
/// difference encoding) or mangled, rendered one drawing at a time or whole into a folder or
/// a `.npy`, with the ink options inside and past their bounds, `--lines` and shards mixed in.
extension CLIGrammar {
    /// A coordinate: mostly inside Quick, Draw!'s 256 box, sometimes far outside it.
    mutating func inkCoordinate() -> Int {
        random.chance(0.9) ? random.int(0...255) : random.pick([-100_000, -1, 256, 1_000_000, 0, 0])
    }

    /// `count` drawings, one a line; `bad` lines are not a drawing.
    mutating func quickDraw(_ count: Int, bad: Set<Int>) -> String {
        (0..<count).map { i -> String in
            if bad.contains(i) {
                return random.pick([#"{"key_id": "x", "drawing": [[[1, 2], [3]]]}"#, #"{"drawing": 5}"#, "not json", #"{"key_id": "y"}"#])
            }
            let strokes = (0..<random.int(1...5)).map { _ -> String in
                let n = random.int(1...9)
                var xs = (0..<n).map { _ in inkCoordinate() }, ys = (0..<n).map { _ in inkCoordinate() }
                if random.chance(0.2) { xs += [xs[0]]; ys += [ys[0]] }  // a duplicate sample
                let ts = random.chance(0.3) ? ",[" + (0..<xs.count).map { String($0 * 17) }.joined(separator: ",") + "]" : ""
                return "[[\(xs.map(String.init).joined(separator: ","))],[\(ys.map(String.init).joined(separator: ","))]\(ts)]"
            }
            let key = random.chance(0.8) ? #""key_id": "\#(7_000_000 + i)", "# : ""
            return #"{\#(key)"word": "fuzz", "drawing": [\#(strokes.joined(separator: ","))]}"#
        }.joined(separator: "\n") + "\n"
    }

    /// An InkML page: X Y with time and force in some order, explicit or difference encoded,
    /// now and then a channel the reader does not know.
    mutating func inkML() -> String {
        var channels = ["X", "Y"] + (random.chance(0.5) ? ["T"] : []) + (random.chance(0.5) ? ["F"] : [])
        if random.chance(0.3) { channels.append("OA") }
        if random.chance(0.3) { channels.swapAt(0, 1) }
        let format = channels.map { #"<channel name="\#($0)" type="decimal"/>"# }.joined()
        let traces = (0..<random.int(1...4)).map { _ -> String in
            let points = (0..<random.int(1...6)).map { k -> String in
                let values = channels.map { c -> String in
                    switch c {
                    case "T": return String(k * 10)
                    case "F": return String(random.int(0...1023))
                    case "OA": return "0.5"
                    default: return String(inkCoordinate())
                    }
                }
                return (k > 0 && random.chance(0.2) ? "'" : "") + values.joined(separator: " ")
            }
            return "<trace>\(points.joined(separator: ", "))</trace>"
        }
        return #"<ink xmlns="http://www.w3.org/2003/InkML"><traceFormat>\#(format)</traceFormat>\#(traces.joined())</ink>"#
    }

    /// One `render` of ink: its arguments, the files it reads added to `files`.
    mutating func inkRender(_ files: inout [String: Data], _ failures: inout [String]) -> [String] {
        let ndjson = random.chance(0.7)
        let count = random.int(1...12)
        var bad: Set<Int> = []
        if ndjson, random.chance(0.25) { bad.insert(random.int(0...(count - 1))) }
        let text = ndjson ? quickDraw(count, bad: bad) : inkML()
        let input = ndjson ? "d.ndjson" : "d.inkml"
        let mangled = random.chance(0.1)
        files[input] = mangled ? mangle(text) : Data(text.utf8)
        let whole = ndjson && random.chance(0.6)
        let output = random.chance(0.06) ? input : whole ? random.pick(["out/", "out.npy"]) : "out.png"
        var args = ["render", input, "-o", output]
        if args[3] == input { failures.append("-o names an input") }
        if ndjson, !whole, random.chance(0.8) {
            let index = random.chance(0.9) ? random.int(0...(count - 1)) : count + random.int(0...3)
            args += ["--index", String(index)]
            if index >= count && !mangled { failures.append("--index past the file's drawings") }
            if bad.contains(index) && !mangled { failures.append("--index names a bad line") }
            if random.chance(0.04) { args += ["--key", "7000000"]; failures.append("--index and --key together") }
        }
        if whole, !bad.isEmpty, !mangled {
            if random.chance(0.5) { args.append("--skip-bad-lines") } else { failures.append("a bad line without --skip-bad-lines") }
        }
        if random.chance(0.6) {
            let size = random.chance(0.92) ? random.pick(["28x28", "64x48", "1x1", "40x40", "96x96"])
                : random.pick(["0x5", "5x0", "70000x2", "10", "axb", "-5x5"])
            if !["28x28", "64x48", "1x1", "40x40", "96x96"].contains(size) { failures.append("--size out of range") }
            args += ["--size", size]
        } else if whole, args[3] == "out/" {
            args += ["--size", "64x64"]  // not the 256×256 default: cases stay quick
        }
        if random.chance(0.3) {
            let r = random.chance(0.85) ? random.pick(["1", "3.5", "8"]) : random.pick(["0", "-2", "5000"])
            if let v = Double(r), v > 0, v <= 4096 {} else { failures.append("--radius out of range") }
            args += ["--radius", r]
        }
        if random.chance(0.2) {
            let m = random.chance(0.85) ? random.pick(["0", "2"]) : "-1"
            if m == "-1" { failures.append("--margin below 0") }
            args += ["--margin", m]
        }
        if random.chance(0.2) {
            let s = random.chance(0.85) ? random.pick(["0.15", "0.3", "1"]) : random.pick(["0.001", "11"])
            if s == "0.001" || s == "11" { failures.append("--spacing out of range") }
            args += ["--spacing", s]
        }
        if random.chance(0.2) { args += ["--fit", random.pick(["ink", "frame"])] }
        if random.chance(0.15) { args += ["--brush", "soft-round"] }
        if random.chance(whole ? 0.5 : 0.08) {
            args.append("--lines")
            if !whole { failures.append("--lines without a whole .ndjson file") }
        }
        if whole, random.chance(0.3) {
            let k = random.int(1...3)
            args += ["--shard", random.chance(0.9) ? "\(k)/3" : shard(&failures)]
        }
        if random.chance(0.1) { args.append("--overwrite") }
        return args
    }
}
