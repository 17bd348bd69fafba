import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Stipple
@testable import StippleGolden
import XCTest

/// A test folder of small scripts (64×48), with goldens recorded on demand, and the edits
/// that make cases fail: a changed colour, a stamp shifted by 1 px, a flipped brush.
struct GoldenTestFolder {
    let root: URL
    var scripts: URL { root.appendingPathComponent("scripts") }
    var golden: URL { scripts.appendingPathComponent("golden") }
    var output: URL { root.appendingPathComponent("out") }

    static let background = "#101014"

    init(_ test: XCTestCase, extraCases: Int = 0) throws {
        root = try TestSupport.temporaryDirectory(test, "golden")
        try FileManager.default.createDirectory(at: scripts.appendingPathComponent("brushes"), withIntermediateDirectories: true)
        try PNGFile.write(GoldenTestFolder.gammaBrush(flipped: false), to: brushPath)
        try write("pass", stamps: "[[20, 20, 6, 0, 0, 1, 0.2, 0.1, 1], [44, 28, 9, 0, 0, 0.2, 0.8, 0.3, 0.7]]")
        try write("colour", stamps: "[[32, 24, 10, 0, 0, 0.9, 0.5, 0.1, 1]]")
        try write("shifted", stamps: "[[20, 20, 8, 0, 0, 0.3, 0.6, 1, 1]]")
        try write("flipped", brush: "gamma", stamps: "[[32, 24, 12, 0, 0, 1, 1, 1, 1]]")
        try write("missing", stamps: "[[12, 36, 5, 0, 0, 1, 1, 0, 1]]")
        for i in 0..<extraCases {
            try write(String(format: "extra-%02d", i), stamps: "[[\(10 + i), \(12 + i % 20), \(4 + i % 7), 0, 0, 0.5, 0.\(i % 10), 1, 1]]")
        }
    }

    var brushPath: String { scripts.appendingPathComponent("brushes/gamma.png").path }

    /// A Γ: asymmetric both ways, so a flip of it can never look the same.
    static func gammaBrush(flipped: Bool) -> Image {
        let n = 16
        var px = [UInt8](repeating: 255, count: n * n * 4)
        for y in 0..<n {
            for x in 0..<n {
                let row = flipped ? n - 1 - y : y
                px[(y * n + x) * 4 + 3] = (x < 4 || row < 4) ? 255 : 0
            }
        }
        return Image(width: n, height: n, pixels: px)
    }

    func write(_ name: String, brush: String = "dot", stamps: String, width: Int = 64) throws {
        let json = """
            { "canvas": { "width": \(width), "height": 48, "background": "\(GoldenTestFolder.background)" },
              "brushes": { "dot": { "builtin": "hard-round", "size": 32 }, "gamma": "brushes/gamma.png" },
              "draw": [ { "brush": "\(brush)", "stamps": \(stamps) } ] }
            """
        try json.write(to: scripts.appendingPathComponent("\(name).json"), atomically: true, encoding: .utf8)
    }

    /// The edits every run must catch: a colour, a 1 px shift, a flipped brush, a deleted golden.
    func breakCases(driver: String) throws {
        try write("colour", stamps: "[[32, 24, 10, 0, 0, 0.9, 0.55, 0.1, 1]]")
        try write("shifted", stamps: "[[21, 20, 8, 0, 0, 0.3, 0.6, 1, 1]]")
        try PNGFile.write(GoldenTestFolder.gammaBrush(flipped: true), to: brushPath)
        try FileManager.default.removeItem(at: golden.appendingPathComponent("missing.\(driver).points.png"))
    }

    /// `stipple test` on this folder, outside CI unless `ci`.
    func test(_ extra: [String] = [], ci: Bool = false) throws -> TestSupport.Run {
        try TestSupport.stipple(["test", scripts.path, "--output", output.path] + extra, environment: ["CI": ci ? "true" : "false"])
    }

    /// The driver's short name, from the goldens a run recorded.
    func recordedDriver() throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: golden.path)
        let parsed = try XCTUnwrap(names.compactMap(GoldenStore.parse(fileName:)).first)
        return parsed.driver
    }

    static func lines(_ run: TestSupport.Run) -> [String] { run.stdout.split(separator: "\n").map(String.init) }

    static func line(_ run: TestSupport.Run, _ prefix: String) -> String? {
        lines(run).first { $0.hasPrefix(prefix) }
    }
}

/// Counts JUnit elements with Foundation's XMLParser; fails on malformed XML.
final class JUnitCounter: NSObject, XMLParserDelegate {
    var suites: [[String: String]] = []
    var testcases: [[String: String]] = []
    var failures: [[String: String]] = []
    var properties: [String: String] = [:]
    var errorsSeen = 0

    static func parse(_ url: URL) throws -> JUnitCounter {
        let counter = JUnitCounter()
        let parser = try XCTUnwrap(XMLParser(contentsOf: url))
        parser.delegate = counter
        XCTAssertTrue(parser.parse(), "JUnit XML parses: \(String(describing: parser.parserError))")
        return counter
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "testsuite": suites.append(attributes)
        case "testcase": testcases.append(attributes)
        case "failure": failures.append(attributes)
        case "error": errorsSeen += 1
        case "property": properties[attributes["name"] ?? ""] = attributes["value"]
        default: break
        }
    }
}
