// swift-tools-version:6.0
// In-process fuzz targets for Stipple's readers, one executable per reader.
// Not part of the main package or `make test`: build and run them with `make fuzz`, which does
//   swift build -c debug -Xswiftc -sanitize=address \
//       -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
//       --scratch-path ../.build-fuzz
// ASan and libFuzzer's coverage for every module, the library's included. Not the documented
// `-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library`: -Xswiftc flags also reach
// the package's build tool (GLSLEmbedTool, top-level code in main.swift), which then fails to
// compile (-parse-as-library) or to link (libFuzzer's runtime wants LLVMFuzzerTestOneInput;
// ld.gold dies with an internal error). So -parse-as-library and the link with
// -sanitize=fuzzer,address are given to the fuzz targets only, here. Each target defines LLVMFuzzerTestOneInput, and
// `<Target>_main`, the entry SwiftPM links `main` to in a debug build (see Fuzz.run). Each target calls
// its reader on the input and ignores thrown errors: an InputError is a correct answer; a
// crash, a trap, a hang or a sanitizer report is a finding.
import PackageDescription

// The fuzz targets' main.swift holds no top-level code: libFuzzer's driver is the entry.
let library: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
// libFuzzer's runtime is linked into the fuzz targets only (see the build command above).
let fuzzer: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]
let stipple: Target.Dependency = .product(name: "Stipple", package: "Stipple")

let package = Package(
    name: "StippleFuzz",
    dependencies: [
        .package(name: "Stipple", path: ".."),
    ],
    targets: [
        // Scratch files, the error check and libFuzzer's driver, shared by every target.
        .target(name: "FuzzSupport", swiftSettings: library),
        // The JSON parser and the script decoder: Script.parse(bytes:path:directory:).
        .executableTarget(name: "FuzzScript", dependencies: ["FuzzSupport", stipple], swiftSettings: library, linkerSettings: fuzzer),
        // `.sketchpoints` records: SketchPointsFile.decode(_:path:).
        .executableTarget(name: "FuzzSketchpoints", dependencies: ["FuzzSupport", stipple], swiftSettings: library, linkerSettings: fuzzer),
        // The PNG reader (libpng through the C shim): PNGFile.read(path:) over a file in /dev/shm;
        // then Stipple's encoder, every image encoded and read back.
        .executableTarget(name: "FuzzPNG", dependencies: ["FuzzSupport", stipple], swiftSettings: library, linkerSettings: fuzzer),
        // A test folder's stipple-test.json: GoldenConfig.load(path:scriptNames:).
        .executableTarget(name: "FuzzTestConfig", dependencies: [
            "FuzzSupport", stipple, .product(name: "StippleGolden", package: "Stipple"),
        ], swiftSettings: library, linkerSettings: fuzzer),
        // YUV4MPEG2: Y4MHeader.parse(_:file:) and Y4MReader over a pipe, frame by frame.
        .executableTarget(name: "FuzzY4M", dependencies: ["FuzzSupport", stipple], swiftSettings: library, linkerSettings: fuzzer),
        // InkML: InkMLReader.parse(_:file:), then the script the ink becomes.
        .executableTarget(name: "FuzzInkML", dependencies: ["FuzzSupport", stipple], swiftSettings: library, linkerSettings: fuzzer),
        // Quick, Draw! ndjson: every line's drawing, then the script it becomes.
        .executableTarget(name: "FuzzQuickDraw", dependencies: ["FuzzSupport", stipple], swiftSettings: library, linkerSettings: fuzzer),
    ],
    // Harness code over C's stderr and errno: Swift 5 mode (the library keeps its own).
    swiftLanguageModes: [.v5]
)
