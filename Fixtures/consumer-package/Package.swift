// swift-tools-version:6.0
// A package that uses Stipple the way an application's tests would: by path, through
// StippleTesting's assertGolden. Stipple's own suite builds and runs it
// (Tests/StippleTests/ConsumerPackageTests.swift) from a copy in .build-consumer/package,
// two folders below Stipple's root, so that "../.." is Stipple there as it is here.
import PackageDescription

let package = Package(
    name: "StippleConsumer",
    dependencies: [
        .package(name: "Stipple", path: "../.."),
    ],
    targets: [
        .testTarget(
            name: "ConsumerTests",
            dependencies: [
                .product(name: "Stipple", package: "Stipple"),
                .product(name: "StippleGolden", package: "Stipple"),
                .product(name: "StippleTesting", package: "Stipple"),
            ],
            // Goldens live beside the tests, in __Goldens__/<TestFile>/: not resources.
            exclude: ["__Goldens__"]
        ),
    ]
)
