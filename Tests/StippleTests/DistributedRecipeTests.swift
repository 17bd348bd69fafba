import Foundation
import XCTest
@testable import Stipple

/// The one-machine recipe of examples/distributed, its commands run through `xargs -P 2`:
/// the render's shared folder and the joined bake are one run's, byte for byte.
final class DistributedRecipeTests: XCTestCase {
    func testTheParallelRecipeJoinsToOneRun() throws {
        _ = try VideoTestSupport.requireFFmpeg()
        let dir = try TestSupport.temporaryDirectory(self, "distributed")
        let script = """
            {"canvas": {"width": 48, "height": 32}, "fps": 10, "maxAge": 8, "brushes": {"dot": {"builtin": "hard-round"}},
             "draw": [{"brush": "dot", "color": "#ffffff", "radius": 4,
                       "points": [{"x": 5, "y": 5, "t": 0}, {"x": 40, "y": 30, "t": 0.5}]},
                      {"brush": "dot", "color": "#3070ff", "radius": 3,
                       "points": [{"x": 40, "y": 4, "t": 0.6}, {"x": 6, "y": 28, "t": 1.0}]},
                      {"undo": 1, "t": 0.9}, {"redo": 1, "t": 1.1}]}
            """
        try script.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        try VideoTestSupport.makeVideo(dir.appendingPathComponent("in.y4m").path, width: 48, height: 32, frames: 14, rate: 10)
        let recipe = TestSupport.packageRoot.appendingPathComponent("examples/distributed/parallel.sh").path
        let env = ["STIPPLE": TestSupport.stippleBinary.path, "RUNNER": "xargs -P 2 -I {}", "FRAMES": "0...13"]
        let exports = env.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        let run = try VideoTestSupport.shell("\(exports) sh '\(recipe)' s.json in.y4m 3", in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)

        var one = try TestSupport.stipple(["render", "s.json", "--frames", "0...13", "-o", "whole"], in: dir)
        XCTAssertEqual(one.status, 0, one.stderr)
        one = try TestSupport.stipple(["bake", "s.json", "--video", "in.y4m", "-o", "whole.y4m"], in: dir)
        XCTAssertEqual(one.status, 0, one.stderr)

        let fm = FileManager.default
        let names = try fm.contentsOfDirectory(atPath: dir.appendingPathComponent("whole").path).sorted()
        XCTAssertEqual(names.count, 14)
        XCTAssertEqual(try fm.contentsOfDirectory(atPath: dir.appendingPathComponent("frames").path).sorted(), names)
        for name in names {
            XCTAssertTrue(try Data(contentsOf: dir.appendingPathComponent("frames/" + name))
                          == Data(contentsOf: dir.appendingPathComponent("whole/" + name)), name)
        }
        XCTAssertTrue(try Data(contentsOf: dir.appendingPathComponent("baked.y4m"))
                      == Data(contentsOf: dir.appendingPathComponent("whole.y4m")), "the joined bake is the whole bake")
        XCTAssertFalse(fm.fileExists(atPath: dir.appendingPathComponent("part-1.y4m").path), "the parts are removed")
    }

    /// A bake script may leave its canvas out (the video gives the size): the recipe bakes it
    /// and renders nothing, and a broken script stops it with the script's error.
    func testTheParallelRecipeBakesAScriptWithoutACanvas() throws {
        _ = try VideoTestSupport.requireFFmpeg()
        let dir = try TestSupport.temporaryDirectory(self, "distributed-no-canvas")
        let script = """
            {"fps": 10, "brushes": {"dot": {"builtin": "hard-round"}},
             "draw": [{"brush": "dot", "color": "#ffffff", "radius": 4,
                       "points": [{"x": 5, "y": 5, "t": 0}, {"x": 40, "y": 30, "t": 0.5}]}]}
            """
        try script.write(to: dir.appendingPathComponent("s.json"), atomically: true, encoding: .utf8)
        try "{".write(to: dir.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        try VideoTestSupport.makeVideo(dir.appendingPathComponent("in.y4m").path, width: 48, height: 32, frames: 9, rate: 10)
        let recipe = TestSupport.packageRoot.appendingPathComponent("examples/distributed/parallel.sh").path
        let exports = "STIPPLE='\(TestSupport.stippleBinary.path)' RUNNER='xargs -P 2 -I {}'"
        let run = try VideoTestSupport.shell("\(exports) sh '\(recipe)' s.json in.y4m 3", in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("no canvas"), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("frames").path))

        let one = try TestSupport.stipple(["bake", "s.json", "--video", "in.y4m", "-o", "whole.y4m"], in: dir)
        XCTAssertEqual(one.status, 0, one.stderr)
        XCTAssertTrue(try Data(contentsOf: dir.appendingPathComponent("baked.y4m"))
                      == Data(contentsOf: dir.appendingPathComponent("whole.y4m")), "the joined bake is the whole bake")

        let broken = try VideoTestSupport.shell("\(exports) sh '\(recipe)' broken.json in.y4m 3", in: dir)
        XCTAssertEqual(broken.status, 2)
        XCTAssertTrue(broken.stderr.contains("broken.json:"), broken.stderr)
    }

    /// docs/distributed.md's timings name the script make-timing-script.py writes: its size,
    /// stamps and frames are what the page says.
    func testTheTimingScriptIsTheOneTheDocsDescribe() throws {
        let python = try TestSupport.run("/bin/sh", ["-c", "command -v python3"])
        try XCTSkipUnless(python.status == 0, "python3 is not on PATH")
        let dir = try TestSupport.temporaryDirectory(self, "distributed-timing")
        let maker = TestSupport.packageRoot.appendingPathComponent("examples/distributed/make-timing-script.py").path
        for (name, argument) in [("timing.json", ""), ("timing-bake.json", " bake")] {
            let made = try VideoTestSupport.shell("python3 '\(maker)'\(argument) > \(name)", in: dir)
            XCTAssertEqual(made.status, 0, made.stderr)
        }
        let run = try TestSupport.stipple(["describe", "timing.json", "--json"], in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["width"] as? Int, 640)
        XCTAssertEqual(object["height"] as? Int, 360)
        XCTAssertEqual(object["stamps"] as? Int, 28_136)
        XCTAssertEqual(object["lastFrame"] as? Int, 2967)
        let page = try String(contentsOf: TestSupport.packageRoot.appendingPathComponent("docs/distributed.md"), encoding: .utf8)
        XCTAssertTrue(page.contains("640×360") && page.contains("28 136 stamps") && page.contains("frames 0 to 2967"))

        let bake = try String(contentsOf: dir.appendingPathComponent("timing-bake.json"), encoding: .utf8)
        XCTAssertFalse(bake.contains("\"canvas\""), "the bake script takes the video's size")
    }

    func testTheSchedulerRecipesPassTheirIndexAsAShard() throws {
        let folder = TestSupport.packageRoot.appendingPathComponent("examples/distributed")
        func text(_ name: String) throws -> String { try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) }
        let k8s = try text("kubernetes-indexed-job.yaml")
        XCTAssertTrue(k8s.contains("completionMode: Indexed") && k8s.contains("JOB_COMPLETION_INDEX + 1") && k8s.contains("--shard \"$K/8\""))
        let slurm = try text("slurm-array.sh")
        XCTAssertTrue(slurm.contains("#SBATCH --array=1-16") && slurm.contains("K=${SLURM_ARRAY_TASK_ID}") && slurm.contains("--shard \"$K/$N\""))
        let ci = try text("github/golden-shards.yml")
        XCTAssertTrue(ci.contains("shard: [1, 2, 3, 4]") && ci.contains("--shard ${{ matrix.shard }}/4") && ci.contains("--merge-reports"))
    }
}
