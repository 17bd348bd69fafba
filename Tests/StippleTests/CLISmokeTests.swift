import XCTest

final class CLISmokeTests: XCTestCase {
    func testInfoNamesThePlatform() throws {
        let run = try TestSupport.stipple(["info"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("platform"), run.stdout)
        XCTAssertTrue(run.stdout.contains("surfaceless") || run.stdout.contains("gbm") || run.stdout.contains("device"))
    }

    func testGBMWithoutARenderNodeFailsClearly() throws {
        let hasRenderNode = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri"))?
            .contains { $0.hasPrefix("renderD") } ?? false
        try XCTSkipIf(hasRenderNode, "this machine has a render node: the GBM path runs instead (see GBMTests)")
        let run = try TestSupport.stipple(["info"], environment: ["STIPPLE_EGL_PLATFORM": "gbm"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("render node"), run.stderr)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, "one line: \(run.stderr)")
    }

    func testGBMRendersWhereARenderNodeExists() throws {
        let hasRenderNode = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri"))?
            .contains { $0.hasPrefix("renderD") } ?? false
        try XCTSkipUnless(hasRenderNode, "skipped: no /dev/dri/renderD* on this machine, so the GBM path cannot run here")
        let run = try TestSupport.stipple(["info"], environment: ["STIPPLE_EGL_PLATFORM": "gbm"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("gbm"), run.stdout)
    }

    func testBadPlatformNameIsRefused() throws {
        let run = try TestSupport.stipple(["info"], environment: ["STIPPLE_EGL_PLATFORM": "wayland"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("STIPPLE_EGL_PLATFORM=wayland"), run.stderr)
    }
}
