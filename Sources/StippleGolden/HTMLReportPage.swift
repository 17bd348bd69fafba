import Stipple
/// The markup of `HTMLReport`'s page. Every piece of text from the report goes through
/// `HTMLReport.escape`: case names and messages come from file names and error text.
enum HTMLReportPage {
    typealias Shown = HTMLReport.Shown

    static func page(report: GoldenRunReport, sections: [String]) -> String {
        let e = HTMLReport.escape
        let cs = report.cases
        func n(_ v: GoldenCaseResult.Verdict) -> Int { cs.filter { $0.verdict == v }.count }
        var counts: [(String, String, Int)] = [
            ("passed", "passed", n(.passed)), ("failed", "failed", n(.failed)), ("missing", "missing", n(.missing)),
            ("recorded", "recorded", n(.recorded)), ("error", "errors", n(.error)),
        ]
        let noGolden = n(.noGoldenForDriver)
        if noGolden > 0 { counts.append(("no-golden-for-driver", "no golden for this driver", noGolden)) }
        let pills = counts.map { "<span class=\"count v-\($0.0)\(($0.2 == 0) ? " zero" : "")\"><b>\($0.2)</b> \($0.1)</span>" }
        let shard = report.shard.map { "<span class=\"count shard\">shard <b>\(e($0))</b></span>" } ?? ""
        let verdict = report.failures.isEmpty ? "All \(cs.count) cases pass" : "\(report.failures.count) of \(cs.count) cases need attention"
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
        let dl = figures.map { "<div><dt>\(e($0.0))</dt><dd>\(e($0.1))</dd></div>" }.joined()

        let goldenDriver = c.goldenDriver.map { g in
            "<span class=\"\(g == c.driver.shortName ? "" : "mismatch")\">golden by <b>\(e(g))</b></span>"
        } ?? "<span>golden driver unknown</span>"
        let drawnBy = c.driver == runDriver ? "drawn by <b>\(e(c.driver.shortName))</b>" : "drawn by \(driver(c.driver))"

        var body = ""
        let row = [HTMLReport.Role.expected, .actual, .diff].compactMap { role in images[role].map { figure(role, $0) } }
        if !row.isEmpty { body += "<div class=\"images\">\(row.joined())</div>" }
        if images[.diff]?.src != nil { body += legend }
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
        let caption = role.rawValue
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

    static let css = """
    :root{--fg:#1d2330;--muted:#667085;--line:#e4e7ec;--bg:#f6f7f9;--card:#fff;--pass:#157347;--fail:#c4281c;\
    --miss:#b25e09;--rec:#2463c6;--err:#8a1538;--nog:#6b3fa0}
    *{box-sizing:border-box}
    body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
    header{position:sticky;top:0;z-index:2;background:var(--card);border-bottom:1px solid var(--line);padding:12px 24px}
    h1{font-size:18px;margin:0 0 2px;display:flex;gap:12px;align-items:baseline;flex-wrap:wrap}
    .verdict{font-size:14px;font-weight:600}.verdict.ok{color:var(--pass)}.verdict.bad{color:var(--fail)}
    .run-driver{margin:0 0 8px;color:var(--muted)}.detail{color:var(--muted)}
    .bar{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
    .count{padding:2px 10px;border-radius:999px;background:var(--bg);border:1px solid var(--line)}
    .count.zero{opacity:.55}.count.v-passed b{color:var(--pass)}.count.v-failed b{color:var(--fail)}
    .count.v-missing b{color:var(--miss)}.count.v-recorded b{color:var(--rec)}.count.v-error b{color:var(--err)}
    .count.v-no-golden-for-driver b{color:var(--nog)}
    .filter{margin-left:auto;cursor:pointer;user-select:none}
    main{padding:16px 24px;display:flex;flex-direction:column;gap:10px}
    .case{background:var(--card);border:1px solid var(--line);border-left:4px solid var(--pass);border-radius:6px;padding:10px 14px}
    .case.v-failed{border-left-color:var(--fail)}.case.v-missing{border-left-color:var(--miss)}
    .case.v-recorded{border-left-color:var(--rec)}.case.v-error{border-left-color:var(--err)}
    .case.v-no-golden-for-driver{border-left-color:var(--nog)}
    body.failures-only .case:not(.failure){display:none}
    .line{display:flex;gap:10px;align-items:baseline;flex-wrap:wrap}
    .badge{font-size:11px;font-weight:700;text-transform:uppercase;letter-spacing:.04em;color:#fff;padding:1px 7px;\
    border-radius:4px;background:var(--pass)}
    .badge.v-failed{background:var(--fail)}.badge.v-missing{background:var(--miss)}.badge.v-recorded{background:var(--rec)}
    .badge.v-error{background:var(--err)}.badge.v-no-golden-for-driver{background:var(--nog)}
    .name{font-weight:600;font-family:ui-monospace,Menlo,Consolas,monospace}.message{color:var(--muted)}
    details{margin-left:auto;color:var(--muted)}details summary{cursor:pointer;font-size:12px}
    details[open]{flex-basis:100%;margin-left:0}
    .figures{display:flex;flex-wrap:wrap;gap:4px 18px;margin:8px 0 4px}
    .figures div{display:flex;gap:6px}.figures dt{color:var(--muted)}.figures dd{margin:0;font-variant-numeric:tabular-nums}
    .drivers{margin:4px 0;color:var(--muted)}.drivers b{color:var(--fg)}.mismatch{color:var(--fail)}
    .images{display:grid;grid-template-columns:repeat(3,minmax(0,260px));gap:12px;margin-top:8px}
    figure{margin:0}figcaption{font-size:12px;color:var(--muted);margin-bottom:3px}
    figure img{display:block;width:100%;border:1px solid var(--line);background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/16px 16px}
    .pix{image-rendering:pixelated}
    .legend{margin:6px 0 0;font-size:12px;color:var(--muted)}
    .legend i{display:inline-block;width:10px;height:10px;margin:0 4px 0 10px;border:1px solid #0003;vertical-align:-1px}
    .l-over{background:#f00}.l-within{background:#ffc800}.l-aa{background:#ff0}.l-ign{background:#6080e6}.l-out{background:#f0f}
    .gone{padding:12px;border:1px dashed var(--line);color:var(--muted)}
    .compare{margin-top:12px;max-width:544px}
    .stage{position:relative;cursor:pointer;border:1px solid var(--line);\
    background:repeating-conic-gradient(#eee 0 25%,#fff 0 50%) 0 0/16px 16px}
    .stage img{display:block;width:100%}.stage img.over{position:absolute;left:0;top:0;height:100%}
    .divider{position:absolute;top:0;bottom:0;width:2px;margin-left:-1px;background:#111;box-shadow:0 0 0 1px #fff}
    .compare input[type=range]{display:block;width:100%;margin:8px 0 4px}
    .controls{display:flex;gap:10px;align-items:center}
    .controls button{font:inherit;padding:3px 12px;cursor:pointer;white-space:nowrap;border:1px solid #c8ccd4;\
    border-radius:4px;background:#fff}.controls button:hover{background:var(--bg)}
    .showing{color:var(--muted)}
    .empty{color:var(--muted)}
    """

    static let script = """
    (function () {
      "use strict";
      var only = document.getElementById("failures-only");
      function filter() { document.body.classList.toggle("failures-only", only.checked); }
      only.addEventListener("change", filter);
      filter();
      Array.prototype.forEach.call(document.querySelectorAll(".compare"), function (box) {
        var range = box.querySelector("input[type=range]");
        var over = box.querySelector("img.over");
        var divider = box.querySelector(".divider");
        var label = box.querySelector(".showing");
        function show() {
          var v = Number(range.value);
          over.style.clipPath = "inset(0 " + (100 - v) + "% 0 0)";
          divider.style.left = v + "%";
          divider.hidden = v === 0 || v === 100;
          label.textContent = v === 100 ? "showing actual" : v === 0 ? "showing expected"
            : "actual left of the line, expected right";
        }
        function flip() { range.value = Number(range.value) >= 50 ? 0 : 100; show(); }
        range.addEventListener("input", show);
        box.querySelector("button").addEventListener("click", flip);
        box.querySelector(".stage").addEventListener("click", flip);
        show();
      });
      document.body.setAttribute("data-ready", "1");
    })();
    """
}
