import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore

/// `workshop verify`: for instructors and CI. Every exercise as shipped must fail its checks
/// (or the checks test nothing) and every reference solution must pass them.
///
/// How, honestly and fast:
/// - "as shipped": the file's fingerprint is the one its suite records (`shippedFingerprint`);
/// - "unsolved fails": the learner checks run (in a child process, as `check` runs them) on
///   that file, and at least one must fail;
/// - "reference passes": references live under Tests/, where a learner does not trip over
///   them. A suite that compiles the file itself (R1) checks its reference by path, here. The
///   others' references are compiled only into the test bundle, so verify asks `swift test`
///   for exactly those tests (`--filter ...Tests/testReferenceSolutionPassesEveryCheck`), one
///   run for all of them; `--no-references` skips that (e.g. right after `swift test`).
struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "For instructors and CI: every exercise as shipped fails its checks, every reference passes. Prints a table; exit 1 otherwise.")

    @Flag(help: "Do not run `swift test` for the references compiled into the test bundle.")
    var noReferences = false

    @Flag(help: "Do not rebuild the workshop before checking.")
    var noBuild = false

    struct Row {
        var id: String
        var asShipped: String
        var unsolved: String
        var reference: String
        var ok: Bool
    }

    func run() throws {
        let workspace = Workspace.locate()
        let runner = CheckRunner(workspace: workspace, rebuild: !noBuild)
        let testedReferences = noReferences ? nil : try runReferenceTests(workspace)

        var rows: [Row] = []
        for suite in ExerciseCatalog.suites {
            var ok = true
            let fingerprint = ShippedFile.fingerprint(of: workspace.path(suite.exerciseFile))
            let asShipped = fingerprint == suite.shippedFingerprint
            if !asShipped { ok = false }

            let results = runner.run(suite)
            let failing = results.filter { !$0.passed }.count
            let unsolved: String
            if results.isEmpty {
                unsolved = "no checks ran"
                ok = false
            } else if failing == 0 {
                unsolved = "PASSES (ships solved)"
                ok = false
            } else {
                unsolved = "fails (\(failing) of \(results.count))"
            }

            let reference: String
            if suite is any ChecksCompileTheFile.Type {
                let results = runner.run(suite, reference: true)
                let failing = results.filter { !$0.passed }
                reference = failing.isEmpty && !results.isEmpty ? "passes" : "FAILS: \(failing.first?.name ?? "no checks")"
                if !(failing.isEmpty && !results.isEmpty) { ok = false }
            } else if let testedReferences {
                reference = testedReferences[suite.id] ?? "FAILS: no reference test ran"
                if reference != "passes (swift test)" { ok = false }
            } else {
                reference = "not run"
            }
            rows.append(Row(id: suite.id, asShipped: fingerprint == nil ? "MISSING" : (asShipped ? "yes" : "NO (changed)"),
                            unsolved: unsolved, reference: reference, ok: ok))
        }

        let header = ["exercise", "file as shipped", "checks on that file", "reference", "verdict"]
        let table = rows.map { [$0.id, $0.asShipped, $0.unsolved, $0.reference, $0.ok ? "ok" : "FAIL"] }
        let widths = header.indices.map { column in ([header] + table).map { terminalWidth($0[column]) }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            let text = zip(cells, widths).map { Style.pad($0, $1) }.joined(separator: "  ")
            return String(text.reversed().drop { $0 == " " }.reversed())
        }
        Style.line(line(header))
        Style.line(String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1)))
        for row in table { Style.line(line(row)) }
        let bad = rows.filter { !$0.ok }
        Style.line()
        if bad.isEmpty {
            Style.line("verify: all \(rows.count) exercises ship unsolved and their references pass"
                       + (noReferences ? " (references under Tests/ not run: --no-references)." : "."))
        } else {
            Style.line("verify: \(bad.count) of \(rows.count) exercises are not right: \(bad.map(\.id).joined(separator: ", ")).")
            throw ExitCode(1)
        }
    }

    /// Runs every compiled-in suite's reference test in one `swift test`; "03" -> "passes (swift test)".
    /// XCTest names each test case in its output, so one run serves every suite; a suite whose
    /// reference test is a Swift Testing `@Test` (its output does not name the suite) gets a
    /// run of its own, judged by the exit status.
    func runReferenceTests(_ workspace: Workspace) throws -> [String: String] {
        let suites = ExerciseCatalog.suites.filter { !($0 is any ChecksCompileTheFile.Type) }
        guard !suites.isEmpty else { return [:] }
        let test = "(test)?[rR]eferenceSolutionPassesEveryCheck"
        let filter = "ExerciseTests\\.Exercise(\(suites.map { $0.id }.joined(separator: "|")))Tests/\(test)"
        Style.line(Style.dim("Running the references under Tests/: swift test --filter '\(filter)' ..."))
        let outcome = try swiftTest(filter, workspace)
        var verdicts: [String: String] = [:]
        for suite in suites {
            let name = "Exercise\(suite.id)Tests.testReferenceSolutionPassesEveryCheck'"
            let lines = outcome.output.split(separator: "\n").filter { $0.contains(name) }
            if lines.contains(where: { $0.contains("' passed") }) {
                verdicts[suite.id] = "passes (swift test)"
            } else if lines.contains(where: { $0.contains("' failed") }) {
                verdicts[suite.id] = "FAILS (swift test)"
            } else {
                let own = try swiftTest("ExerciseTests\\.Exercise\(suite.id)Tests/\(test)", workspace)
                verdicts[suite.id] = own.ranSome && own.succeeded ? "passes (swift test)"
                    : own.ranSome ? "FAILS (swift test)" : "FAILS: no reference test found"
            }
        }
        return verdicts
    }

    func swiftTest(_ filter: String, _ workspace: Workspace) throws -> (output: String, succeeded: Bool, ranSome: Bool) {
        let outcome = try Subprocess.run("swift", ["test", "--filter", filter], currentDirectory: workspace.root.path, timeout: 1800)
        let output = outcome.stdout + "\n" + outcome.stderr
        let ranSome = output.range(of: "Executed [1-9][0-9]* test", options: .regularExpression) != nil
            || output.range(of: "Test run with [1-9][0-9]* test", options: .regularExpression) != nil
        return (output, outcome.succeeded, ranSome)
    }
}
