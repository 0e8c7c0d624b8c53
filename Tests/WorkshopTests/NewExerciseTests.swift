import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// A new folder under Exercises/ (the learner's file, its texts, and `.meta` with exercise.json,
/// driver.swift, checks.swift and the reference), written by hand, is picked up by `list`,
/// `check` and `verify` with no edit anywhere else.
@Suite struct NewExerciseSlowTests {
    @Test func aNewFolderIsPickedUpByListCheckAndVerify() async throws {
        try #require(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        let workspace = try TestWorkspace()
        func run(_ arguments: [String]) async throws -> Subprocess.Outcome {
            try await WorkshopBinary.run(arguments, root: workspace.root)
        }
        let folder = "Exercises/99-adder"
        let shipped = """
            // Exercise 99: add two numbers (a made-up exercise, for this test)
            // Check it: swift run workshop check 99
            enum Adder {
                static func add(_ a: Int, _ b: Int) -> Int {
                    0  // TODO(1): the sum
                }
            }

            """
        let solution = shipped.replacingOccurrences(of: "0  // TODO(1): the sum", with: "a + b")
        let checks = """
            import ExerciseChecks

            enum AdderChecks {
                static let adds = Check(
                    "adds", ja: "足し算する", wanted: "add(2, 3) is 5", ja: "add(2, 3) が 5", hint: 1)
                static let addsZero = Check(
                    "adds zero", ja: "0 を足す", wanted: "add(0, 0) is 0", ja: "add(0, 0) が 0", hint: 1)
                static let all = [adds, addsZero]

                static func run() -> [CheckResult] {
                    let sum = Adder.add(2, 3)
                    let zero = Adder.add(0, 0)
                    return [
                        adds.result(sum == 5, got: localized("\\(sum)", ja: "\\(sum)")),
                        addsZero.result(zero == 0, got: localized("\\(zero)", ja: "\\(zero)")),
                    ]
                }
            }

            """
        let driver = """
            import ExerciseChecks

            ExerciseDriver.run(AdderChecks.all) { AdderChecks.run() }

            """
        let meta: [String: Any] = [
            "id": "99", "lesson": "99", "title": ["en": "add two numbers", "ja": "2 つの数を足す"],
            "files": ["Adder.swift"], "hints": 1,
            "checks": [["en": "adds", "ja": "足し算する"], ["en": "adds zero", "ja": "0 を足す"]],
            "failsAsShipped": ["adds"], "uses": ["en": "Adder.add(_:_:)", "ja": "Adder.add(_:_:)"],
        ]
        let files: [(String, Data)] = [
            ("Adder.swift", Data(shipped.utf8)),
            ("README.md", Data("# Exercise 99: add two numbers\n\n`swift run workshop check 99`\n".utf8)),
            ("README.ja.md", Data("# 演習 99: 2 つの数を足す\n".utf8)),
            ("hints.md", Data("1. `a + b`.\n".utf8)), ("hints.ja.md", Data("1. `a + b` です。\n".utf8)),
            (".meta/exercise.json", try JSONSerialization.data(withJSONObject: meta)),
            (".meta/driver.swift", Data(driver.utf8)), (".meta/checks.swift", Data(checks.utf8)),
            (".meta/solution/Adder.swift", Data(solution.utf8)),
        ]
        try FileManager.default.createDirectory(
            atPath: workspace.path(folder + "/.meta/solution"), withIntermediateDirectories: true)
        for (name, data) in files { try workspace.write(folder + "/" + name, data) }
        // The author's last step: `sync` copies the file as shipped to .meta/shipped (what
        // `reset` restores; no git is involved).
        let sync = try await run(["sync", "99"])
        #expect(sync.status == 0, "\(sync.stdout + sync.stderr)")
        #expect(sync.stdout.contains("wrote \(folder)/.meta/shipped/Adder.swift"), "\(sync.stdout)")
        #expect(workspace.text(folder + "/.meta/shipped/Adder.swift") == shipped)

        let list = try await run(["list"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("add two numbers"), "\(list.stdout)")
        #expect(list.stdout.contains("of \(ExerciseCatalog.exercises.count + 1) exercises"), "\(list.stdout)")

        let failing = try await run(["check", "99"])
        #expect(failing.status == 1, "\(failing.stdout + failing.stderr)")
        #expect(failing.stdout.contains("FAIL  adds"), "\(failing.stdout)")

        let verify = try await run(["verify", "99"])
        #expect(verify.status == 0, "\(verify.stdout + verify.stderr)")
        #expect(
            verify.stdout.contains("verify: exercise 99 ships unsolved and its reference passes"), "\(verify.stdout)")
        // exercise.json says the copy as shipped fails a check that it passes: verify says which.
        var wrong = meta
        wrong["failsAsShipped"] = ["adds", "adds zero"]
        try workspace.write(folder + "/.meta/exercise.json", try JSONSerialization.data(withJSONObject: wrong))
        let misdeclared = try await run(["verify", "99"])
        #expect(misdeclared.status == 1, "\(misdeclared.stdout + misdeclared.stderr)")
        #expect(
            misdeclared.stdout.contains("PASSES \"adds zero\", which it must fail as shipped"), "\(misdeclared.stdout)")
        try workspace.write(folder + "/.meta/exercise.json", try JSONSerialization.data(withJSONObject: meta))

        try workspace.write(folder + "/Adder.swift", Data(solution.utf8))
        let passing = try await run(["check", "99"])
        #expect(passing.status == 0, "\(passing.stdout + passing.stderr)")
        #expect(passing.stdout.hasSuffix("exercise 99 passed\n"), "\(passing.stdout)")
        let reset = try await run(["reset", "99", "--yes"])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(workspace.text(folder + "/Adder.swift") == shipped, "reset finds the file as shipped")
    }
}
