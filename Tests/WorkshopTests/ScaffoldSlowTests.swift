import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools
import XCTest

/// `workshop new lesson` and `workshop new exercise`, as an instructor would run them: in a copy
/// of the package, the next lesson and its first exercise are scaffolded, the copy builds with
/// its tests (zero warnings), the new lesson keeps the lesson contract and passes its own tests,
/// the texts' tests stay green, and `verify` finds the exercise failing as shipped and passing
/// with its scaffolded reference. The slow tier (its name ends in SlowTests): a whole build.
final class ScaffoldSlowTests: XCTestCase {
    static let root = ExerciseRoot.builtFrom

    /// Where the copy lives: inside the package's ignored `.build-scaffold/`, at the same path
    /// every time, so that a second run builds only what changed.
    static let copy = root.appendingPathComponent(".build-scaffold/package")

    func sh(_ command: String, in folder: URL, timeout: Double = 600) throws -> Subprocess.Outcome {
        try Subprocess.run("/bin/sh", ["-c", command], currentDirectory: folder.path, timeout: timeout)
    }

    /// What a failed run in the copy said: its error and failure lines (XCTest prints them before
    /// Swift Testing's long tail, so the tail alone can miss them), then its last lines.
    func failures(_ outcome: Subprocess.Outcome, tail: Int = 1500) -> String {
        let lines = outcome.stdout.split(separator: "\n").filter {
            $0.contains("error:") || $0.contains(" failed") || $0.contains("✘")
        }
        return lines.prefix(40).joined(separator: "\n") + "\n…\n" + String(outcome.stdout.suffix(tail))
            + (outcome.timedOut ? "\n(timed out)" : "")
    }

    /// The package's files as they are (`PackageTree`: tracked and new, not ignored), their times
    /// kept, over what the copy had (its `.build` stays).
    func makeCopy() throws {
        let files = FileManager.default
        try files.createDirectory(at: Self.copy, withIntermediateDirectories: true)
        for name in try files.contentsOfDirectory(atPath: Self.copy.path) where name != ".build" {
            try files.removeItem(at: Self.copy.appendingPathComponent(name))
        }
        let copied = try sh("\(PackageTree.tar(of: Self.root)) | tar -xpf - -C '\(Self.copy.path)'", in: Self.root)
        XCTAssertTrue(copied.succeeded, copied.stderr)
        let committed = try sh(
            "git init -q && git add -A && git -c user.name=instructor -c user.email=i@localhost commit -qm copy",
            in: Self.copy)
        XCTAssertTrue(committed.succeeded, committed.stderr)
    }

    func testANewLessonAndItsFirstExerciseBuildKeepTheContractAndVerify() throws {
        try XCTSkipUnless(WorkshopBinary.isBuilt, "run `swift build` first: the test drives .build/debug/workshop")
        try makeCopy()
        // The next lesson's number: one more than the last Sources/lessonNN.
        let sources = try FileManager.default.contentsOfDirectory(
            atPath: Self.copy.appendingPathComponent("Sources").path)
        let last = sources.compactMap { $0.hasPrefix("lesson") ? Int($0.dropFirst("lesson".count)) : nil }.max() ?? 0
        let number = String(format: "%02d", last + 1)
        let exercise = number + "a"

        var environment = ProcessInfo.processInfo.environment
        environment["WORKSHOP_ROOT"] = Self.copy.path
        environment["LANG"] = "C.UTF-8"
        for arguments in [
            ["new", "lesson", number, "--title", "entries off the main thread", "--title-ja", "メインスレッドの外で取る投稿"],
            [
                "new", "exercise", exercise, "--lesson", number, "--title", "the answer, worked out once", "--title-ja",
                "一度だけ求める答え",
            ],
        ] {
            let made = try Subprocess.run(
                WorkshopBinary.path, arguments, environment: environment, currentDirectory: Self.copy.path, timeout: 120
            )
            XCTAssertTrue(made.succeeded, "workshop \(arguments.joined(separator: " ")): \(made.stdout)\(made.stderr)")
        }

        let build = try sh("swift build --build-tests 2>&1", in: Self.copy, timeout: 1800)
        XCTAssertTrue(build.succeeded, failures(build, tail: 3000))
        XCTAssertFalse(build.stdout.contains("warning:"), "the scaffolded lesson builds with no warning")
        guard build.succeeded else { return }

        // The new lesson's own tests, the lesson contract for every lesson (the new one too), and
        // the tests that read the texts, the catalog and the names.
        let suites = [
            "Lesson\(number)Tests", "LessonContractTests", "CatalogTextsTests", "CatalogTests", "MetricNameTests",
            "ExerciseIdsTests", "JapaneseDocumentsTests", "TutorialCatalogTests", "CaptureMarkerTests",
            "LanguageSyncTests", "JapaneseTermTests", "MutationCaseDataTests",
        ]
        let tests = try sh(
            "swift test --skip-build --skip SlowTests --filter '\(suites.joined(separator: "|"))' 2>&1", in: Self.copy,
            timeout: 1800)
        XCTAssertTrue(tests.succeeded, failures(tests))
        XCTAssertTrue(tests.stdout.contains("lesson\(number)"), "the contract suite ran for lesson \(number)")

        let verify = try sh(".build/debug/workshop verify \(exercise) 2>&1", in: Self.copy, timeout: 300)
        XCTAssertTrue(verify.succeeded, failures(verify))
        XCTAssertTrue(
            verify.stdout.contains("verify: exercise \(exercise) ships unsolved and its reference passes"),
            verify.stdout)
    }
}
