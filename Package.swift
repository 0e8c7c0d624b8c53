// swift-tools-version:6.0
// Sakusaku Workshop: one core module, one executable per lesson, the learner's exercises.
//
// Each lesson declares its own targets in its own block below, so that lessons can be
// added without touching each other's lines.
import PackageDescription

let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")

// MARK: - The core and the tools every lesson shares

let coreTargets: [Target] = [
    // zlib and SQLite as the system ships them (zlib1g-dev, libsqlite3-dev); see their module maps.
    .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
    // Everything a lesson needs but is not the lesson's idea: the fixture server, the Screen
    // and its stall meter, the trace, the report, the common CLI options, gzip and SQLite.
    .target(name: "WorkshopCore", dependencies: ["CZlib", "CSQLite", argumentParser]),
    .executableTarget(name: "fixture-server", dependencies: ["WorkshopCore"]),
    .testTarget(name: "WorkshopCoreTests", dependencies: ["WorkshopCore"]),
]

// MARK: - Lesson 03: GCD queues (a timeline and its icons)

let lesson03Targets: [Target] = [
    .executableTarget(name: "lesson03", dependencies: ["WorkshopCore"]),
    .target(name: "Exercise03", dependencies: ["WorkshopCore"], path: "Exercises/03-icons-off-main",
            exclude: ["README.md", "hints.md"]),
    .testTarget(name: "Lesson03Tests", dependencies: ["lesson03", "WorkshopCore"]),
]
let lesson03Exercises: [Target.Dependency] = ["Exercise03"]

// MARK: - Lesson 01: Operation (issue 3)
let lesson01Targets: [Target] = [
    .executableTarget(name: "lesson01", dependencies: ["WorkshopCore", argumentParser]),
    .target(name: "Exercise01", dependencies: ["WorkshopCore"], path: "Exercises/01-parse-operation",
            exclude: ["README.md", "hints.md"]),
    .testTarget(name: "Lesson01Tests", dependencies: ["lesson01", "WorkshopCore"]),
]
let lesson01Exercises: [Target.Dependency] = ["Exercise01"]

// MARK: - Lesson 02: run-loop thread (issue 3)
let lesson02Targets: [Target] = [
    .executableTarget(name: "lesson02", dependencies: ["WorkshopCore", argumentParser]),
    .testTarget(name: "Lesson02Tests", dependencies: ["lesson02", "WorkshopCore"]),
    .target(name: "Exercise02", dependencies: ["WorkshopCore"], path: "Exercises/02-sleeping-run-loop",
            exclude: ["README.md", "hints.md"]),
]
let lesson02Exercises: [Target.Dependency] = ["Exercise02"]

// MARK: - Lesson 04: gzip (issue 4)
let lesson04Targets: [Target] = [
    .executableTarget(name: "lesson04", dependencies: ["WorkshopCore", argumentParser]),
    .target(name: "Exercise04", dependencies: ["WorkshopCore"], path: "Exercises/04-gzip-by-hand",
            exclude: ["README.md", "hints.md"]),
    .testTarget(name: "Lesson04Tests", dependencies: ["lesson04", "WorkshopCore"]),
]
let lesson04Exercises: [Target.Dependency] = ["Exercise04"]

// MARK: - Lesson 05: caching (issue 4)
let lesson05Targets: [Target] = [
    .executableTarget(name: "lesson05", dependencies: ["WorkshopCore", argumentParser]),
    .target(name: "Exercise05", dependencies: ["WorkshopCore"], path: "Exercises/05-preload-cache",
            exclude: ["README.md", "hints.md"]),
    .testTarget(name: "Lesson05Tests", dependencies: ["lesson05", "WorkshopCore"]),
]
let lesson05Exercises: [Target.Dependency] = ["Exercise05"]

// MARK: - Lesson 06: SQLite upsert (issue 5)
let lesson06Targets: [Target] = [
    .executableTarget(name: "lesson06", dependencies: ["WorkshopCore", argumentParser]),
    .target(name: "Exercise06", dependencies: ["WorkshopCore"], path: "Exercises/06-upsert-flags",
            exclude: ["README.md", "hints.md"]),
    .testTarget(name: "Lesson06Tests", dependencies: ["lesson06", "WorkshopCore"]),
]
let lesson06Exercises: [Target.Dependency] = ["Exercise06"]

// MARK: - Lesson 07: layout math (issue 6)
let lesson07Targets: [Target] = [
    .executableTarget(name: "lesson07", dependencies: ["WorkshopCore", argumentParser]),
    .target(name: "Exercise07", dependencies: ["WorkshopCore"], path: "Exercises/07-line-breaks",
            exclude: ["README.md", "hints.md"]),
    .testTarget(name: "Lesson07Tests", dependencies: ["lesson07", "WorkshopCore"]),
]
let lesson07Exercises: [Target.Dependency] = ["Exercise07"]

// MARK: - The learner's CLI and exercises not tied to one lesson (issue 7)
let workshopTargets: [Target] = [
    // `swift run workshop`: list, check, hint, watch, reset, verify (runs checks in a child process).
    .executableTarget(name: "workshop", dependencies: ["ExerciseChecks", "WorkshopCore", argumentParser]),
    // Exercise R1: a data race. Its checks compile this file themselves (plainly and under TSan,
    // in a child process), so it is built by `swift build` for the compiler's Swift 6 checks but
    // linked into nothing: a learner's typo here fails R1's check, not `swift run workshop`.
    .target(name: "ExerciseR1", path: "Exercises/R1-data-race", exclude: ["README.md", "hints.md"]),
    // Drives the built `workshop` binary; checks every `swift run ...` line in Lessons/*.md.
    .testTarget(name: "WorkshopTests", dependencies: ["workshop", "ExerciseChecks", "WorkshopCore"]),
]
let workshopExercises: [Target.Dependency] = []  // ExerciseR1 on purpose not here: see above

// MARK: - Exercise checks: one module with every exercise's checks, used by tests and CLI

let exerciseModules = lesson01Exercises + lesson02Exercises + lesson03Exercises + lesson04Exercises
    + lesson05Exercises + lesson06Exercises + lesson07Exercises + workshopExercises

let exerciseTargets: [Target] = [
    .target(name: "ExerciseChecks", dependencies: ["WorkshopCore"] + exerciseModules),
    // Runs every exercise's checks against its reference solution (kept under Tests/) and
    // against the learner's file.
    .testTarget(name: "ExerciseTests", dependencies: ["ExerciseChecks", "WorkshopCore"]),
]

let allTargets = coreTargets + lesson01Targets + lesson02Targets + lesson03Targets + lesson04Targets
    + lesson05Targets + lesson06Targets + lesson07Targets + workshopTargets + exerciseTargets

let package = Package(
    name: "SakusakuWorkshop",
    platforms: [.macOS(.v13)],
    // Every executable target becomes a product of the same name (`swift run lessonNN`).
    products: allTargets.filter { $0.type == .executable }.map { .executable(name: $0.name, targets: [$0.name]) },
    dependencies: [
        // The one package beyond the toolchain: the field's standard for command lines.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: allTargets
)
