// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Stipple",
    products: [
        .library(name: "Stipple", targets: ["Stipple"]),
        .executable(name: "stipple", targets: ["StippleCLI"]),
        .library(name: "StippleGolden", targets: ["StippleGolden"]),
        .library(name: "StippleTesting", targets: ["StippleTesting"]),
        .library(name: "StippleServe", targets: ["StippleServe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `make docs`: the DocC catalogs of Stipple, StippleGolden and StippleTesting (a command
        // plugin: nothing of it is built by `swift build`).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `stipple serve` alone: the HTTP and WebSocket server (the library never sees them).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.60.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    ],
    targets: [
        // The layers, each seeing only those below it, so the compiler keeps the direction
        // script → strokes → renderer → image → golden | bench:
        //   CStipple ← Stipple ← StippleGolden ← StippleTesting
        //                     ↖ StippleBench (+ CStippleBench)
        //                     ↖ StippleServe (+ Hummingbird)
        //   StippleCLI on top of all of them.
        // C shim: EGL bring-up (GBM | device | surfaceless), GL error names, PNG on libpng.
        .target(
            name: "CStipple",
            linkerSettings: [
                .linkedLibrary("EGL"),
                .linkedLibrary("GLESv2"),
                .linkedLibrary("gbm"),
                .linkedLibrary("png"),
                .linkedLibrary("z"),
            ]
        ),
        // Turns GLSL/*.vert|frag into generated Swift, so the shaders have one source.
        .executableTarget(name: "GLSLEmbedTool", path: "Sources/GLSLEmbedTool"),
        .plugin(
            name: "GLSLEmbedPlugin",
            capability: .buildTool(),
            dependencies: ["GLSLEmbedTool"],
            path: "Sources/GLSLEmbedPlugin"
        ),
        .target(
            name: "Stipple",
            dependencies: ["CStipple"],
            // Each folder's README says what it owns (docs/architecture.md puts them together).
            exclude: ["CPU/README.md", "GL/README.md", "Ink/README.md", "Model/README.md", "Output/README.md",
                      "Plan/README.md", "Renderer/README.md", "Script/README.md", "Session/README.md",
                      "Strokes/README.md", "Video/README.md"],
            plugins: ["GLSLEmbedPlugin"]
        ),
        // Comparison engine, golden runner, reports: beside the library, not inside it.
        .target(name: "StippleGolden", dependencies: ["Stipple"]),
        // The benchmark's C peers (the GL baseline, Cairo loaded at run time): no user links them.
        .target(name: "CStippleBench", dependencies: ["CStipple"]),
        .target(name: "StippleBench", dependencies: ["Stipple", "CStipple", "CStippleBench"]),
        // `stipple serve`: a drawing in the browser, looked at and drawn on live.
        .target(
            name: "StippleServe",
            dependencies: [
                "Stipple",
                "CStipple",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .executableTarget(
            name: "StippleCLI",
            dependencies: [
                "Stipple", "StippleGolden", "StippleBench", "StippleServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // assertGolden for XCTest and Swift Testing: goldens in __Goldens__ beside the test file.
        .target(name: "StippleTesting", dependencies: ["Stipple", "StippleGolden"]),
        .testTarget(
            name: "StippleTests",
            dependencies: ["Stipple", "CStipple", "StippleGolden", "StippleBench", "CStippleBench", "StippleCLI",
                           "StippleTesting", "StippleServe"],
            // Goldens of StippleTesting's own tests, read from the source tree, not bundled.
            exclude: ["__Goldens__"]
        ),
    ]
)
