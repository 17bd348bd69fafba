import Stipple
/// The markup of `HTMLReport`'s page. Every piece of text from the report goes through
/// `HTMLReport.escape`: case names and messages come from file names and error text.
enum HTMLReportPage {
    typealias Shown = HTMLReport.Shown

    static func page(report: GoldenRunReport, sections: [String]) -> String {
        let e = HTMLReport.escape
        let cs = report.cases
        let c = report.counts
        var counts: [(String, String, Int)] = [
            ("passed", "passed", c.passed), ("failed", "failed", c.failed), ("missing", "missing", c.missing),
            ("recorded", "recorded", c.recorded), ("error", c.errors == 1 ? "error" : "errors", c.errors), ("flaky", "flaky", c.flaky),
        ]
        if c.noGoldenForDriver > 0 { counts.append(("no-golden-for-driver", "no golden for this driver", c.noGoldenForDriver)) }
        let pills = counts.map { "<span class=\"count v-\($0.0)\(($0.2 == 0) ? " zero" : "")\"><b>\($0.2)</b> \($0.1)</span>" }
        var shard = report.shard.map { "<span class=\"count shard\">shard <b>\(e($0))</b></span>" } ?? ""
        if let signal = report.interrupted {
            shard += "<span class=\"count interrupted\">interrupted by <b>\(e(signal))</b>: \(report.notRun ?? 0) not run</span>"
        }
        let stale = report.staleTolerances.count
        if stale > 0 { shard += "<span class=\"count stale\"><b>\(stale)</b> tolerance\(stale == 1 ? "" : "s") looser than needed</span>" }
        let verdict = report.failures.isEmpty ? (cs.count == 1 ? "1 case passes" : "All \(cs.count) cases pass") : "\(report.failures.count) of \(counted(cs.count, "case")) need\(report.failures.count == 1 ? "s" : "") attention"
        return """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Stipple golden report: \(e(verdict))</title>
        <style>\(css)</style>
        </head>
        <body>
        <header>
        <h1>Stipple golden report <span class="verdict\(report.failures.isEmpty ? " ok" : " bad")">\(e(verdict))</span></h1>
        <p class="run-driver">Drawn by \(driver(report.driver))</p>
        <div class="bar">\(pills.joined())\(shard)
        <label class="filter"><input type="checkbox" id="failures-only"> Failures only</label></div>
        </header>
        <main>
        \(sections.isEmpty ? "<p class=\"empty\">No cases.</p>" : sections.joined(separator: "\n"))
        </main>
        <script>\(script)</script>
        </body>
        </html>

        """
    }

    static func driver(_ d: DriverIdentity) -> String {
        let e = HTMLReport.escape
        return "<b>\(e(d.shortName))</b> <span class=\"detail\">(\(e(d.platform)) · \(e(d.vendor)) · \(e(d.renderer)))</span>"
    }

    static func section(_ c: GoldenCaseResult, id: Int, images: [HTMLReport.Role: Shown], runDriver: DriverIdentity) -> String {
        let e = HTMLReport.escape
        var figures: [(String, String)] = []
        if let f = c.comparison {
            let size = f.expectedWidth == f.actualWidth && f.expectedHeight == f.actualHeight
                ? "\(f.actualWidth)×\(f.actualHeight)"
                : "expected \(f.expectedWidth)×\(f.expectedHeight), actual \(f.actualWidth)×\(f.actualHeight)"
            figures.append(("size", size))
            figures.append(("max channel diff", "\(f.maxChannelDifference)"))
            figures.append(("pixels over / allowed", "\(f.pixelsOverTolerance) / \(f.pixelsAllowed) of \(f.totalPixels)"))
            if f.pixelsAntialiased > 0 { figures.append(("anti-aliased, forgiven", "\(f.pixelsAntialiased)")) }
            if f.pixelsIgnored > 0 { figures.append(("ignored", "\(f.pixelsIgnored)")) }
        }
        figures.append(("tolerance", c.tolerance.summary))
        figures.append(("primitive", c.primitive))
        if c.seconds > 0 { figures.append(("time", "\((c.seconds * 1000).rounded()) ms")) }
        if let tight = c.tightTolerance { figures.append(("looser than needed; tight", tight)) }
        let dl = figures.map { "<div><dt>\(e($0.0))</dt><dd>\(e($0.1))</dd></div>" }.joined()

        let goldenDriver = c.goldenDriver.map { g in
            "<span class=\"\(g == c.driver.shortName ? "" : "mismatch")\">golden by <b>\(e(g))</b></span>"
        } ?? "<span>golden driver unknown</span>"
        let drawnBy = c.driver == runDriver ? "drawn by <b>\(e(c.driver.shortName))</b>" : "drawn by \(driver(c.driver))"

        var body = HTMLReportParts.goldenAndAccept(c)
        let row = [HTMLReport.Role.expected, .actual, .secondActual, .diff].compactMap { role in images[role].map { figure(role, $0) } }
        if !row.isEmpty { body += "<div class=\"images\">\(row.joined())</div>" }
        if images[.diff]?.src != nil { body += legend }
        if c.isFailure { body += HTMLReportParts.zoom(c, images: images) }
        if let ex = images[.expected], let ac = images[.actual], let es = ex.src, let asrc = ac.src {
            body += compare(expected: es, actual: asrc, width: ac.width ?? ex.width)
        }
        let classes = "case v-\(c.verdict.rawValue)\(c.isFailure ? " failure" : "")"
        let script = c.script.isEmpty ? "" : "; script <code>\(e(c.script))</code>"
        let details = "<dl class=\"figures\">\(dl)</dl><p class=\"drivers\">\(drawnBy); \(goldenDriver)\(script)</p>"
        // A case that passed with nothing kept is one line; its figures fold away into it.
        let folded = !c.isFailure && row.isEmpty
        return """
        <section class="\(classes)" id="case-\(id)">
        <div class="line"><span class="badge v-\(c.verdict.rawValue)">\(e(c.verdict.rawValue))</span> \
        <span class="name">\(e(c.name))</span> <span class="message">\(e(c.message))</span>\(folded ? "<details><summary>figures</summary>\(details)</details>" : "")</div>
        \(folded ? "" : details)
        \(body)</section>
        """
    }

    /// Small canvases are scaled up without smoothing, so single pixels stay visible.
    static func pixelClass(_ width: Int?) -> String { (width ?? 1000) <= 320 ? " pix" : "" }

    static func figure(_ role: HTMLReport.Role, _ shown: Shown) -> String {
        let e = HTMLReport.escape
        let caption = role == .secondActual ? "actual, second render" : role.rawValue
        guard let src = shown.src else {
            return "<figure><figcaption>\(caption)</figcaption><div class=\"gone\">not found: \(e(shown.missingPath ?? ""))</div></figure>"
        }
        return "<figure><figcaption>\(caption)</figcaption><a href=\"\(e(src))\"><img class=\"shot\(pixelClass(shown.width))\" "
            + "src=\"\(e(src))\" alt=\"\(role.rawValue)\"></a></figure>"
    }

    static let legend = "<p class=\"legend\">diff: <i class=\"l-over\"></i>beyond tolerance <i class=\"l-within\"></i>within "
        + "tolerance <i class=\"l-aa\"></i>anti-aliased, forgiven <i class=\"l-ign\"></i>ignored <i class=\"l-out\"></i>outside one image</p>"

    static func compare(expected: String, actual: String, width: Int?) -> String {
        let e = HTMLReport.escape
        return """
        <div class="compare"><div class="stage" title="Click to flip between expected and actual">\
        <img class="under\(pixelClass(width))" src="\(e(expected))" alt="expected">\
        <img class="over\(pixelClass(width))" src="\(e(actual))" alt="actual"><div class="divider"></div></div>\
        <input type="range" min="0" max="100" value="50" aria-label="Reveal actual over expected">\
        <div class="controls"><button type="button">Flip expected / actual</button> <span class="showing"></span></div></div>
        """
    }
}
