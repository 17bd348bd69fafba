// swift-tools-version:6.0
// Stipple's images as swift-snapshot-testing snapshots: `assertSnapshot(of: image, as: .stipple)`.
// A package of its own, so that users of Stipple alone never resolve or build
// swift-snapshot-testing (nor the swift-syntax its inline snapshots need; only its
// `SnapshotTesting` library is built here).
import PackageDescription

let package = Package(
    name: "StippleSnapshotTesting",
    products: [
        .library(name: "StippleSnapshotTesting", targets: ["StippleSnapshotTesting"]),
    ],
    dependencies: [
        .package(name: "Stipple", path: "../.."),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", "1.19.0"..<"1.20.0"),
    ],
    targets: [
        .target(
            name: "StippleSnapshotTesting",
            dependencies: [
                .product(name: "Stipple", package: "Stipple"),
                .product(name: "StippleGolden", package: "Stipple"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]
        ),
        .testTarget(
            name: "StippleSnapshotTestingTests",
            dependencies: [
                "StippleSnapshotTesting",
                .product(name: "Stipple", package: "Stipple"),
                .product(name: "StippleGolden", package: "Stipple"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]
        ),
    ]
)
