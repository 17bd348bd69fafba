import Stipple
import Foundation

/// A self-contained HTML page of a golden run: `DIR/index.html` and the images it shows,
/// copied into `DIR/images/` and referenced relatively, so the folder can be zipped,
/// archived by CI or opened from disk. Inline CSS and JS only: no network, no fonts.
///
/// Failures come first. Each case shows its verdict, message, figures, tolerance and the
/// drivers that drew the image and its golden; failures (and cases whose diff was kept)
/// show the golden's path and the exact command that accepts the new image, expected |
/// actual | diff, a zoom on the pixel of the largest difference, then a stage where a
/// slider reveals actual over expected and a button (or a click on the stage) flips between
/// the two. Flaky cases show both renders and their difference; cases whose configured
/// tolerance was looser than needed say so, with the tight value.
public enum HTMLReport {
    /// Writes the page for `report` into `directory` (`index.html` and `images/`).
    public static func write(report: GoldenRunReport, to directory: String) throws {
        try write(report: report, to: directory, imagesRelativeTo: nil)
    }

    /// `imagesRelativeTo`: the folder relative image paths in the report are resolved against
    /// (default: the current directory).
    public static func write(report: GoldenRunReport, to directory: String, imagesRelativeTo base: String?) throws {
        let fm = FileManager.default
        let images = URL(fileURLWithPath: directory).appendingPathComponent("images")
        try fm.createDirectory(at: images, withIntermediateDirectories: true)
        let ordered = report.cases.enumerated().sorted { l, r in
            l.element.isFailure != r.element.isFailure ? l.element.isFailure : l.offset < r.offset
        }.map(\.element)
        var sections: [String] = []
        // Numbered in page order, so the first failure's images are images/1-*.png.
        for (index, c) in ordered.enumerated() {
            // Copy what the case shows; a file that is gone is named rather than failing the report.
            var shown: [Role: Shown] = [:]
            if c.isFailure || c.diff != nil {
                for (role, path) in [(Role.expected, c.golden), (.actual, c.actual), (.secondActual, c.secondActual), (.diff, c.diff)] {
                    guard let path else { continue }
                    let source = resolve(path, base)
                    let name = "\(index + 1)-\(role.rawValue).png"
                    let target = images.appendingPathComponent(name)
                    try? fm.removeItem(at: target)
                    if (try? fm.copyItem(at: source, to: target)) != nil {
                        shown[role] = Shown(src: "images/" + name, width: pngWidth(target), file: target.path)
                    } else {
                        shown[role] = Shown(src: nil, width: nil, missingPath: path)
                    }
                }
            }
            sections.append(HTMLReportPage.section(c, id: index + 1, images: shown, runDriver: report.driver))
        }
        let page = HTMLReportPage.page(report: report, sections: sections)
        try AtomicFile.write(Array(page.utf8), to: URL(fileURLWithPath: directory).appendingPathComponent("index.html").path)
    }

    enum Role: String { case expected, actual, secondActual = "actual-2", diff }

    struct Shown {
        var src: String?
        var width: Int?
        var missingPath: String?
        /// The copy on disk, for the zoom's pixel values.
        var file: String?

        init(src: String?, width: Int?, missingPath: String? = nil, file: String? = nil) {
            self.src = src; self.width = width; self.missingPath = missingPath; self.file = file
        }
    }

    /// The width from a PNG's header (bytes 16…19 of IHDR), without decoding it.
    static func pngWidth(_ url: URL) -> Int? {
        guard let h = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? h.close() }
        guard let d = try? h.read(upToCount: 24), d.count == 24, d.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { return nil }
        return d[16..<20].reduce(0) { $0 << 8 | Int($1) }
    }

    static func resolve(_ path: String, _ base: String?) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        if let base { return URL(fileURLWithPath: base).appendingPathComponent(path) }
        return URL(fileURLWithPath: path)
    }

    /// Text made safe for element content and quoted attribute values.
    public static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out
    }
}
