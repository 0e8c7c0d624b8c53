// swift-tools-version:6.0
// Sakusaku Workshop: one core module, one executable per lesson, the learner's exercises.
import PackageDescription

let package = Package(
    name: "SakusakuWorkshop",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "lesson03", targets: ["lesson03"]),
        .executable(name: "fixture-server", targets: ["fixture-server"]),
    ],
    dependencies: [
        // The one package beyond the toolchain: the field's standard for command lines.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // zlib as it ships with the system (zlib1g-dev); see Sources/CZlib/module.modulemap.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),

        // Everything a lesson needs but is not the lesson's idea: the fixture server,
        // the Screen and its stall meter, the trace, the report, the common CLI options.
        .target(
            name: "WorkshopCore",
            dependencies: [
                "CZlib",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        .executableTarget(name: "lesson03", dependencies: ["WorkshopCore"]),
        .executableTarget(name: "fixture-server", dependencies: ["WorkshopCore"]),

        // The learner's files. Each exercise is a small module built from Exercises/NN-*/.
        .target(
            name: "Exercise03",
            dependencies: ["WorkshopCore"],
            path: "Exercises/03-icons-off-main",
            exclude: ["README.md", "hints.md"]
        ),
        // The checks a learner's exercise must pass (shared by the tests and the CLI).
        .target(name: "ExerciseChecks", dependencies: ["WorkshopCore", "Exercise03"]),

        .testTarget(name: "WorkshopCoreTests", dependencies: ["WorkshopCore"]),
        .testTarget(name: "Lesson03Tests", dependencies: ["lesson03", "WorkshopCore"]),
        .testTarget(
            name: "ExerciseTests",
            dependencies: ["ExerciseChecks", "WorkshopCore"]
        ),
    ]
)
