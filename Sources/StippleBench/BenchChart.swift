import Stipple
import Foundation

/// Throughput curves as a self-contained SVG: draw calls a second against stamps a draw
/// (Stipple and the C baseline), and time a frame against live stamps (resident and
/// reupload). Log scales; no scripts, no external resources.
package enum BenchChart {
    struct Series { var name: String; var color: String; var points: [(Double, Double)] }

    package static func svg(_ report: BenchReport) -> String {
        var panels: [String] = []
        let calls: [Series] = ["stipple", "C baseline"].enumerated().map { i, variant in
            Series(name: variant, color: i == 0 ? "#d62728" : "#1f77b4", points: report.rows
                .filter { $0.scenario == "drawcalls" && $0.variant == variant }
                .compactMap { row in
                    guard let per = perDraw(row.workload), let v = row.figures["calls/s"] else { return nil }
                    return (Double(per), v)
                })
        }
        if calls.contains(where: { !$0.points.isEmpty }) {
            panels.append(panel(title: "Draw calls per second", x: "stamps per draw", y: "calls/s", series: calls))
        }
        if report.rows.contains(where: { $0.scenario == "animation" }) {
            let k = report.config.newPerFrame
            panels.append(panel(title: "Time a frame, k = \(k) new stamps a frame", x: "live stamps L",
                                y: "ms/frame", series: animationSeries(report, figure: "ms/frame")))
            panels.append(panel(title: "Bytes uploaded a frame, k = \(k)", x: "live stamps L",
                                y: "bytes/frame", series: animationSeries(report, figure: "bytes/frame")))
        }
        let width = 560, height = 360
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height * max(panels.count, 1) + 30)\" "
            + "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        let threads = LlvmpipeThreads.apply(to: report.renderer) ? ", llvmpipe threads \(report.llvmpipeThreads)" : ""
        svg += "<text x=\"10\" y=\"18\" font-size=\"13\">stipple bench: \(escape(report.renderer))\(escape(threads))</text>\n"
        for (i, p) in panels.enumerated() {
            svg += "<g transform=\"translate(0,\(30 + i * height))\">\n\(p)</g>\n"
        }
        return svg + "</svg>\n"
    }

    /// One curve an upload strategy: `figure` against the live count L.
    static func animationSeries(_ report: BenchReport, figure: String) -> [Series] {
        UploadStrategy.allCases.enumerated().map { i, s in
            Series(name: s.rawValue, color: i == 0 ? "#2ca02c" : "#9467bd", points: report.rows
                .filter { $0.scenario == "animation" && $0.variant == s.rawValue }
                .compactMap { row in
                    guard let live = liveCount(row.workload), let v = row.figures[figure] else { return nil }
                    return (Double(live), v)
                })
        }
    }

    static func perDraw(_ workload: String) -> Int? {
        guard let r = workload.range(of: "draws of ") else { return nil }
        return Int(workload[r.upperBound...].prefix { $0.isNumber })
    }

    static func liveCount(_ workload: String) -> Int? {
        guard workload.hasPrefix("L=") else { return nil }
        return Int(workload.dropFirst(2).prefix { $0.isNumber })
    }

    static func panel(title: String, x: String, y: String, series: [Series]) -> String {
        let all = series.flatMap(\.points).filter { $0.0 > 0 && $0.1 > 0 }
        guard !all.isEmpty else { return "" }
        let (left, top, w, h) = (70.0, 30.0, 440.0, 260.0)
        let xs = all.map { log10($0.0) }, ys = all.map { log10($0.1) }
        var (x0, x1) = (xs.min()!.rounded(.down), xs.max()!.rounded(.up))
        var (y0, y1) = (ys.min()!.rounded(.down), ys.max()!.rounded(.up))
        if x0 == x1 { x1 += 1 }
        if y0 == y1 { y1 += 1 }
        func px(_ v: Double) -> Double { left + (log10(v) - x0) / (x1 - x0) * w }
        func py(_ v: Double) -> Double { top + h - (log10(v) - y0) / (y1 - y0) * h }
        var s = "<text x=\"\(left)\" y=\"18\" font-size=\"13\" font-weight=\"bold\">\(escape(title))</text>\n"
        s += "<rect x=\"\(left)\" y=\"\(top)\" width=\"\(w)\" height=\"\(h)\" fill=\"none\" stroke=\"#999\"/>\n"
        var e = x0
        while e <= x1 {
            let gx = left + (e - x0) / (x1 - x0) * w
            s += "<line x1=\"\(gx)\" y1=\"\(top)\" x2=\"\(gx)\" y2=\"\(top + h)\" stroke=\"#eee\"/>"
            s += "<text x=\"\(gx)\" y=\"\(top + h + 16)\" text-anchor=\"middle\">\(BenchTable.number(pow(10, e)))</text>\n"
            e += 1
        }
        e = y0
        while e <= y1 {
            let gy = top + h - (e - y0) / (y1 - y0) * h
            s += "<line x1=\"\(left)\" y1=\"\(gy)\" x2=\"\(left + w)\" y2=\"\(gy)\" stroke=\"#eee\"/>"
            s += "<text x=\"\(left - 6)\" y=\"\(gy + 4)\" text-anchor=\"end\">\(BenchTable.number(pow(10, e)))</text>\n"
            e += 1
        }
        s += "<text x=\"\(left + w / 2)\" y=\"\(top + h + 34)\" text-anchor=\"middle\">\(escape(x)) (log)</text>\n"
        s += "<text transform=\"translate(16,\(top + h / 2)) rotate(-90)\" text-anchor=\"middle\">\(escape(y)) (log)</text>\n"
        for (i, series) in series.enumerated() where !series.points.isEmpty {
            let pts = series.points.filter { $0.0 > 0 && $0.1 > 0 }.sorted { $0.0 < $1.0 }
            let path = pts.map { String(format: "%.1f,%.1f", px($0.0), py($0.1)) }.joined(separator: " ")
            s += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(series.color)\" stroke-width=\"2\"/>\n"
            for p in pts {
                s += String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%@\"/>", px(p.0), py(p.1), series.color)
            }
            s += "\n<text x=\"\(left + w - 100)\" y=\"\(top + 16 + Double(i) * 16)\" fill=\"\(series.color)\">\(escape(series.name))</text>\n"
        }
        return s
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
