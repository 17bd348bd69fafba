import Stipple
/// The parts of a failing case's section in `HTMLReport`: where its golden is, the command
/// that accepts its image, and a zoom on the pixel of the largest difference.
enum HTMLReportParts {
    /// How many times the zoom enlarges, and how many pixels it shows each side of the centre.
    static let scale = 12, reach = 5

    static func goldenAndAccept(_ c: GoldenCaseResult) -> String {
        let e = HTMLReport.escape
        var s = ""
        if c.isFailure, let g = c.goldenPath {
            s += "<p class=\"golden-path\">golden <code>\(e(g))</code></p>"
        }
        if let a = c.acceptCommand {
            s += "<div class=\"accept\"><span>to accept this image:</span> <code class=\"accept-command\">\(e(a))</code>"
                + " <button type=\"button\" class=\"copy\" data-copy=\"\(e(a))\">Copy</button></div>"
        }
        return s
    }

    /// Expected, actual and diff (flaky: render 1, render 2 and their diff), each enlarged
    /// `scale`× around the largest difference, the centre pixel outlined, with its values.
    static func zoom(_ c: GoldenCaseResult, images: [HTMLReport.Role: HTMLReport.Shown]) -> String {
        let figures = c.verdict == .flaky ? c.renderDifference : c.comparison
        guard let f = figures, let x = f.worstX, let y = f.worstY else { return "" }
        let e = HTMLReport.escape
        let roles: [(HTMLReport.Role, String)] = c.verdict == .flaky
            ? [(.actual, "render 1"), (.secondActual, "render 2"), (.diff, "diff")]
            : [(.expected, "expected"), (.actual, "actual"), (.diff, "diff")]
        let side = (2 * reach + 1) * scale
        var boxes: [String] = []
        for (role, label) in roles {
            guard let shown = images[role], let src = shown.src, let file = shown.file,
                  let image = try? PNGFile.read(path: file).image else { continue }
            var value = "outside the image"
            if x < image.width && y < image.height {
                let p = image.pixel(x, y)
                value = hex(p.r, p.g, p.b, p.a)
            }
            let style = "width:\(side)px;height:\(side)px;background-image:url('\(e(src))');"
                + "background-size:\(image.width * scale)px \(image.height * scale)px;"
                + "background-position:\(-(x - reach) * scale)px \(-(y - reach) * scale)px"
            boxes.append("<figure><figcaption>\(e(label))</figcaption><div class=\"zbox\" style=\"\(style)\" "
                         + "role=\"img\" aria-label=\"\(e(label)) around (\(x), \(y))\"><i style=\"left:\(reach * scale)px;"
                         + "top:\(reach * scale)px;width:\(scale)px;height:\(scale)px\"></i></div>"
                         + "<code class=\"zvalue\">\(e(value))</code></figure>")
        }
        guard !boxes.isEmpty else { return "" }
        let what = c.verdict == .flaky ? "largest difference between the two renders" : "largest difference"
        return "<div class=\"zoom\"><p class=\"zoom-title\">\(what) at (\(x), \(y)): \(f.maxChannelDifference) "
            + "in a premultiplied channel, shown \(scale)×</p><div class=\"zrow\">\(boxes.joined())</div></div>"
    }

    static func hex(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> String {
        "#" + [r, g, b, a].map { v in
            let h = String(v, radix: 16)
            return h.count == 1 ? "0" + h : h
        }.joined()
    }
}
