// swift-tools-version:6.2
// Sakusaku Workshop on one screen (an arrow: "imports"):
//
//   lessonNN ─────────▶ LessonNNKit ─▶ WorkshopServer ─▶ WorkshopCore ─▶ CZlib, CSQLite
//   the program          the idea       the fake API      harness, Screen, report, net,
//                                       and the room      SQLite, gzip, texts
//   fixture-server ────────────────────▶ WorkshopServer
//   workshop ─▶ WorkshopTools ─▶ ExerciseChecks ─▶ every LessonNNKit
//   the CLI     catalog, runner,   what a check program links (as libExerciseSupport)
//               tutorials
//
// Exercises/<id>-<name>/ belongs to no target: `workshop check` compiles the learner's file
// with its .meta/driver.swift and .meta/*.swift (the checks) in a child process.
import PackageDescription

let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let texts: [Resource] = [.process("Resources")]  // Resources/ja.lproj/Localizable.strings: the Japanese

/// One lesson, three targets: the kit holds the lesson's idea (its variants, metric names and
/// contract), the program is `swift run lessonNN`, the tests are the lesson's own.
func lesson(_ number: String) -> [Target] {
    [
        .target(name: "Lesson\(number)Kit", dependencies: ["WorkshopCore", "WorkshopServer"], resources: texts),
        .executableTarget(
            name: "lesson\(number)",
            dependencies: [.target(name: "Lesson\(number)Kit"), "WorkshopCore", "WorkshopServer", argumentParser],
            resources: texts),
        .testTarget(
            name: "Lesson\(number)Tests",
            dependencies: [
                .target(name: "lesson\(number)"), .target(name: "Lesson\(number)Kit"), "LessonTestSupport",
                "WorkshopCore", "WorkshopServer",
            ]),
    ]
}

let lessons = ["01", "02", "03", "04", "05", "06", "07"]
let lessonKits: [Target.Dependency] = lessons.map { .target(name: "Lesson\($0)Kit") }
/// The lesson `workshop new lesson NN` copies, with "Template" renamed "NN": built and tested
/// like every lesson (the contract suite too), so a new lesson starts from code that compiles
/// and passes. No syllabus, README table or check program names it.
let template = "Template"

let core: [Target] = [
    .systemLibrary(name: "CZlib", path: "Sources/CZlib"),  // zlib1g-dev
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),  // libsqlite3-dev
    .target(name: "WorkshopCore", dependencies: ["CZlib", "CSQLite", argumentParser], resources: texts),
    .target(name: "WorkshopServer", dependencies: ["WorkshopCore"], resources: texts),
    .executableTarget(name: "fixture-server", dependencies: ["WorkshopServer", "WorkshopCore"], resources: texts),
]

let workshop: [Target] = [
    .target(name: "ExerciseChecks", dependencies: lessonKits + ["WorkshopCore", "WorkshopServer"]),
    // Templates/: the texts and the exercise `workshop new` copies (the Swift in it is checked by
    // ScaffoldSlowTests: compiled as an exercise; the lesson's code is the template lesson's).
    .target(
        name: "WorkshopTools", dependencies: ["ExerciseChecks", "WorkshopCore"], exclude: ["Templates"],
        resources: texts),
    .executableTarget(
        name: "workshop",
        dependencies: ["WorkshopTools", "ExerciseChecks", "WorkshopCore", "WorkshopServer", argumentParser],
        resources: texts),
]

let tests: [Target] = [
    // What every lesson's tests share: the built program driven with a timeout, the lesson contract.
    .target(
        name: "LessonTestSupport", dependencies: ["WorkshopCore", "WorkshopServer"], path: "Tests/LessonTestSupport"),
    // The lesson contract: one suite checks every promise the lessons share on each built program
    // (Sources/lessonNN), from the contract it declares in its kit (`lessonNN --contract`).
    .testTarget(
        name: "LessonContractTests",
        dependencies: (lessons + [template]).map { .target(name: "lesson\($0)") } + [
            "LessonTestSupport", "WorkshopCore",
        ]),
    .testTarget(
        name: "WorkshopCoreTests",
        dependencies: ["WorkshopCore", "WorkshopServer", "fixture-server", "LessonTestSupport"]),
    .testTarget(
        name: "ExerciseTests", dependencies: ["WorkshopTools", "ExerciseChecks", "WorkshopCore", "WorkshopServer"]),
    .testTarget(
        name: "WorkshopTests",
        dependencies: [
            "workshop", "WorkshopTools", "ExerciseChecks", "WorkshopCore", "WorkshopServer", "LessonTestSupport",
        ]),
]

let targets = core + (lessons + [template]).flatMap(lesson) + workshop + tests

// Built with two upcoming features that Xcode 26's "Approachable Concurrency" setting turns on
// in the app projects it creates; Swift 6.2 and 6.3 leave them off unless a target turns them
// on. With them, a `nonisolated` async function runs on its caller's actor and `@concurrent` is
// how such a function leaves it (SE-0461; without the feature it leaves, as in SE-0338), and a
// conformance may take its type's isolation (SE-0470). Child tasks, `Task.detached` and actors
// run work elsewhere as before. Every type says where it lives itself (`@MainActor`, an actor,
// or nonisolated): no target takes SE-0466's default `MainActor` isolation, because with Swift
// 6.3.1 it makes SwiftPM's generated `Bundle.module` main-actor isolated and the command structs'
// `@Option` defaults too, which swift-argument-parser reads outside any actor
// (Lessons/README.md, "The sessions", says more).
let approachableConcurrency: [SwiftSetting] = [
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    .enableUpcomingFeature("InferIsolatedConformances"),
]
for target in targets where target.type != .system {
    target.swiftSettings = approachableConcurrency
}

let package = Package(
    name: "SakusakuWorkshop",
    defaultLocalization: "en",  // the keys of every Localizable.strings are the English text
    platforms: [.macOS(.v13)],
    products:
        // Every program is a product of the same name (`swift run lesson03`), and what a check
        // program links is one dynamic library (`workshop` builds it when it is missing or old).
        targets.filter { $0.type == .executable }.map { .executable(name: $0.name, targets: [$0.name]) }
        + [.library(name: "ExerciseSupport", type: .dynamic, targets: ["ExerciseChecks"])],
    dependencies: [
        // The one package beyond the toolchain: the field's standard for command lines.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: targets
)
