/// The header line of a YUV4MPEG2 stream (docs/reference.md §11), as ffmpeg's `yuv4mpegpipe` writes it:
/// `YUV4MPEG2 W… H… F…:… I… A…:… C… [X…]`.
///
/// Tags Stipple does not interpret are kept as written, so the output header equals the
/// input's (size, rate, interlace, aspect, chroma, range and any other `X` tag).
public struct Y4MHeader: Sendable, Equatable {
    /// The chroma subsampling Stipple reads and writes.
    public enum Chroma: Sendable, Equatable {
        /// 8-bit 4:2:0; `tag` is the `C` tag as written (`420jpeg`, `420mpeg2`, `420paldv`,
        /// `420`), nil when the header has none (4:2:0 too).
        case yuv420(tag: String?)
        case yuv444

        /// "4:2:0" or "4:4:4", as messages and summaries name it.
        package var name: String {
            switch self {
            case .yuv420: "4:2:0"
            case .yuv444: "4:4:4"
            }
        }
    }

    /// Pixels across.
    public var width: Int
    /// Pixels down.
    public var height: Int
    /// Frames a second as a fraction; ffmpeg reads a missing `F` as 25:1.
    public var rateNumerator: Int
    /// The frame rate's denominator (frames a second = numerator / denominator).
    public var rateDenominator: Int
    /// The chroma subsampling.
    public var chroma: Chroma
    /// The range the header names with `XCOLORRANGE=`; nil when it names none.
    public var colorRange: ColorRange?
    /// Every tag after the magic, in order, as written (rewritten only for a changed range).
    public var tags: [String]

    package static let magic = "YUV4MPEG2"
    /// ffmpeg's demuxer refuses longer headers; so do we.
    public static let maxLength = 256
    package static let supported = "8-bit 4:2:0 (C420jpeg, C420mpeg2, C420paldv, C420, or no C tag) "
        + "and 4:4:4 (C444), progressive (Ip or I?)"

    /// A header for `width` × `height` frames at `rateNumerator` / `rateDenominator` frames a
    /// second, with `chroma` and an optional colour range tag.
    public init(width: Int, height: Int, rateNumerator: Int = 30, rateDenominator: Int = 1,
                chroma: Chroma = .yuv420(tag: "420jpeg"), colorRange: ColorRange? = nil) {
        self.width = width; self.height = height
        self.rateNumerator = rateNumerator; self.rateDenominator = rateDenominator
        self.chroma = chroma; self.colorRange = colorRange
        var tags = ["W\(width)", "H\(height)", "F\(rateNumerator):\(rateDenominator)", "Ip", "A1:1"]
        switch chroma {
        case let .yuv420(tag): if let tag { tags.append("C" + tag) }
        case .yuv444: tags.append("C444")
        }
        if let colorRange { tags.append("XCOLORRANGE=" + (colorRange == .full ? "FULL" : "LIMITED")) }
        self.tags = tags
    }

    /// Frames a second.
    public var fps: Double { Double(rateNumerator) / Double(rateDenominator) }

    /// Pixels across a chroma plane.
    public var chromaWidth: Int { chroma == .yuv444 ? width : (width + 1) / 2 }
    /// Pixels down a chroma plane.
    public var chromaHeight: Int { chroma == .yuv444 ? height : (height + 1) / 2 }
    /// Bytes of the luma plane.
    public var lumaSize: Int { width * height }
    /// Bytes of one chroma plane.
    public var chromaSize: Int { chromaWidth * chromaHeight }
    /// The planes of one frame, without the `FRAME` line.
    public var frameSize: Int { lumaSize + 2 * chromaSize }

    /// The header line, newline included.
    public var line: String { ([Y4MHeader.magic] + tags).joined(separator: " ") + "\n" }

    /// Parses a header line (without its newline). `file` names the stream in errors, which
    /// list what is supported.
    public static func parse(_ text: String, file: String) throws(InputError) -> Y4MHeader {
        func bad(_ why: String) -> InputError { InputError(file: file, location: .byte(0), why) }
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard words.first == magic else {
            throw bad("not a YUV4MPEG2 stream: it must start with \"YUV4MPEG2 \" (got \"\(text.prefix(16))\")")
        }
        var width: Int?, height: Int?, rate = (25, 1), chroma = Chroma.yuv420(tag: nil), range: ColorRange?
        for tag in words.dropFirst() {
            // Tags are copied to the output's header: a control byte (a CR, an ESC) is refused
            // rather than passed on to another program or a terminal.
            if let c = tag.unicodeScalars.first(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                let hex = String(c.value, radix: 16, uppercase: true)
                throw bad("malformed header: tag \(InputError.quoted(tag)) holds the control character U+"
                          + String(repeating: "0", count: 4 - hex.count) + hex)
            }
            let value = String(tag.dropFirst())
            switch tag.first {
            case "W": width = Int(value)
                guard let w = width, w > 0 else { throw bad("malformed header: width \(tag); expected W<pixels>") }
            case "H": height = Int(value)
                guard let h = height, h > 0 else { throw bad("malformed header: height \(tag); expected H<pixels>") }
            case "F":
                guard let r = ratio(value), r.0 > 0, r.1 > 0 else {
                    throw bad("malformed header: frame rate \(tag); expected F<num>:<den>")
                }
                rate = r
            case "A":
                guard ratio(value) != nil else { throw bad("malformed header: aspect \(tag); expected A<num>:<den>") }
            case "I":
                guard value == "p" || value == "?" else {
                    throw bad("unsupported interlacing \(tag): Stipple reads \(supported)")
                }
            case "C":
                switch value {
                case "420jpeg", "420mpeg2", "420paldv", "420": chroma = .yuv420(tag: value)
                case "444": chroma = .yuv444
                default: throw bad("unsupported chroma \(tag): Stipple reads \(supported)")
                }
            case "X":
                if value.hasPrefix("COLORRANGE=") {
                    switch value.dropFirst("COLORRANGE=".count) {
                    case "FULL": range = .full
                    case "LIMITED": range = .limited
                    default: throw bad("malformed header: \(tag); expected XCOLORRANGE=FULL or XCOLORRANGE=LIMITED")
                    }
                }
            default:
                throw bad("malformed header: unknown tag \"\(tag)\"; expected W, H, F, I, A, C or X tags")
            }
        }
        guard let width, let height else { throw bad("malformed header: it needs both W<width> and H<height>") }
        // Checked before a frame is allocated (docs/limits.md).
        guard width <= Limits.maxVideoSide, height <= Limits.maxVideoSide, width * height <= Limits.maxVideoPixels else {
            // The sides may be any Int (H3333333333333333333): the product must not overflow.
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            throw bad("the frame is \(width)×\(height) (\(overflow ? "more than \(Int.max)" : String(pixels)) pixels); a video frame may be at most "
                      + "\(Limits.maxVideoSide) a side and \(Limits.maxVideoPixels) pixels (8K UHD, 7680×4320, fits)")
        }
        var header = Y4MHeader(width: width, height: height, rateNumerator: rate.0, rateDenominator: rate.1,
                               chroma: chroma, colorRange: range)
        header.tags = Array(words.dropFirst())
        return header
    }

    private static func ratio(_ text: String) -> (Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= 0 else { return nil }
        return (a, b)
    }
}
