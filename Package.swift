// swift-tools-version:6.0
// Sakusaku Workshop: one core module, seven lessons, the learner's CLI and its exercise checks.
import PackageDescription

let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")

/// One lesson, three targets: `LessonNNKit` holds the lesson's idea (its tests and the exercise
/// checks import it), `lessonNN` is the program (`swift run lessonNN`), `LessonNNTests` its tests.
func lesson(_ number: String) -> [Target] {
    // Each speaks Japanese too: Resources/ja.lproj/Localizable.strings (see WorkshopCore's Localization/Localized.swift).
    let resources: [Resource] = [.process("Resources")]
    return [
        .target(name: "Lesson\(number)Kit", dependencies: ["WorkshopCore", "WorkshopServer"], resources: resources),
        .executableTarget(
            name: "lesson\(number)",
            dependencies: [.target(name: "Lesson\(number)Kit"), "WorkshopCore", "WorkshopServer", argumentParser],
            resources: resources),
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

let coreTargets: [Target] = [
    // zlib and SQLite as the system ships them (zlib1g-dev, libsqlite3-dev); see their module maps.
    .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
    // What every lesson uses but is not a lesson's idea: the lesson harness, the fixture
    // server, the Screen and its stall meter, the trace and its pictures, the report, the
    // common flags, gzip and SQLite.
    // Its Japanese texts: Resources/ja.lproj/Localizable.strings (see Localization/Localized.swift).
    .target(
        name: "WorkshopCore", dependencies: ["CZlib", "CSQLite", argumentParser], resources: [.process("Resources")]),
    // The fixture server on its own (`swift run fixture-server`), for a second terminal or a room.
    // Its Japanese texts (--help, startup lines, errors): Resources/ja.lproj/Localizable.strings.
    // The "external API" (the fixture server and its routes) and the room (board, docs site, load check).
    .target(name: "WorkshopServer", dependencies: ["WorkshopCore"], resources: [.process("Resources")]),
    .executableTarget(
        name: "fixture-server", dependencies: ["WorkshopServer", "WorkshopCore"], resources: [.process("Resources")]),
    .testTarget(
        name: "WorkshopCoreTests",
        dependencies: ["WorkshopCore", "WorkshopServer", "fixture-server", "LessonTestSupport"]),
    // What every lesson's tests share: the built program driven with a timeout, a test server, pictures.
    .target(
        name: "LessonTestSupport", dependencies: ["WorkshopCore", "WorkshopServer"], path: "Tests/LessonTestSupport"),
]

let workshopTargets: [Target] = [
    // The learner's files in Exercises/ belong to no target: `swift build` and `swift test`
    // never compile them. `workshop check NN` compiles one with its exercise's .meta/driver.swift
    // and .meta/*.swift (the checks) in a child process, linked with the ExerciseSupport library
    // below, so a file in any state can only fail its own check.
    //
    // What a check program links: results and check declarations, the evidence probes, the
    // driver's protocol with the runner (and, through its dependencies, the lessons' kits).
    .target(name: "ExerciseChecks", dependencies: lessonKits + ["WorkshopCore", "WorkshopServer"]),
    // What the `workshop` CLI is made of: the exercise catalog, the runner that compiles and runs
    // a check program, the toolchain it finds, the files as shipped, the lessons' texts and demos,
    // the DocC tutorials. Its Japanese texts: Resources/ja.lproj/Localizable.strings.
    .target(
        name: "WorkshopTools", dependencies: ["ExerciseChecks", "WorkshopCore"], resources: [.process("Resources")]),
    // `swift run workshop`: list, start, check, hint, watch, reset, solution, verify, present.
    // Its Japanese texts: Resources/ja.lproj/Localizable.strings (key: the English text).
    .executableTarget(
        name: "workshop",
        dependencies: ["WorkshopTools", "ExerciseChecks", "WorkshopCore", "WorkshopServer", argumentParser],
        resources: [.process("Resources")]),
    // The checks on the shipped files and the references, each in a throwaway workspace.
    .testTarget(
        name: "ExerciseTests", dependencies: ["WorkshopTools", "ExerciseChecks", "WorkshopCore", "WorkshopServer"]),
    // Drives the built `workshop` binary; checks every `swift run ...` line in Lessons/*.md.
    .testTarget(
        name: "WorkshopTests",
        dependencies: [
            "workshop", "WorkshopTools", "ExerciseChecks", "WorkshopCore", "WorkshopServer", "LessonTestSupport",
        ]),
]

let targets: [Target] = coreTargets + lessons.flatMap(lesson) + workshopTargets

let package = Package(
    name: "SakusakuWorkshop",
    // English is the development language: the keys of every Localizable.strings are the English text.
    defaultLocalization: "en",
    platforms: [.macOS(.v13)],
    products:
        // Every program is a product of the same name (`swift run lesson03`).
        targets.filter { $0.type == .executable }.map { .executable(name: $0.name, targets: [$0.name]) }
        // What a check's driver links: the checks and everything they import, as one dynamic
        // library (`swift build` and `swift test` build it; `workshop` builds it when it is missing or old).
        + [.library(name: "ExerciseSupport", type: .dynamic, targets: ["ExerciseChecks"])],
    dependencies: [
        // The one package beyond the toolchain: the field's standard for command lines.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: targets
)
