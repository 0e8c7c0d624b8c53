import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// Exercise R3's checks beyond the two-way proof: each half-done fix fails the check it is
/// named after and passes the others, and a fix other than the reference's (a main-actor
/// class instead of an actor) passes. The racy copies run only in the checks' own child
/// processes, so `swift test --sanitize=thread` stays green.
final class ExerciseR3MutationTests: XCTestCase {
    override func setUpWithError() throws {
        // Each test compiles and checks a changed copy: the slow tier.
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
    }

    static let id = "R3"
    static let attributesCheck = "no @unchecked Sendable and no nonisolated(unsafe) in the file"
    static let resultsCheck = "each icon is fetched once and every caller gets it (plain run)"
    static let raceCheck = "no data race under the thread sanitizer"
    static let mainActorCheck = "every caller is called back on the main actor, no fetch runs there"

    /// The 2010 class made safe by hand: a lock around every access, callbacks sent to the
    /// main queue, but both attributes kept. No race left, and yet the compiler checks nothing.
    func testALockedClassThatKeepsTheAttributesIsCaught() throws {
        let report = checkedReport(Self.lockedButUnchecked)
        XCTAssertEqual(report[Self.attributesCheck]?.passed, false)
        XCTAssertTrue(
            report[Self.attributesCheck]?.got.contains("IconLoader.swift:5: public final class IconLoader") == true,
            "the line is named: \(String(describing: report[Self.attributesCheck]))")
        for name in [Self.resultsCheck, Self.raceCheck, Self.mainActorCheck] {
            XCTAssertEqual(report[name]?.passed, true, "\(String(describing: report[name]))")
        }
    }

    /// An actor, but the completion is called from a task that is not on the main actor.
    func testCallbacksOffTheMainActorAreCaught() throws {
        var offMain = try changed(
            Self.id, .solution, "completion: @escaping @MainActor @Sendable", "completion: @escaping @Sendable")
        offMain = offMain.replacingOccurrences(
            of: "Task { @MainActor in completion(", with: "Task.detached { completion(")
        XCTAssertTrue(offMain.contains("Task.detached { completion("), "the reference changed shape")
        let report = checkedReport(offMain)
        XCTAssertEqual(report[Self.mainActorCheck]?.passed, false)
        for name in [Self.attributesCheck, Self.resultsCheck, Self.raceCheck] {
            XCTAssertEqual(report[name]?.passed, true, "\(String(describing: report[name]))")
        }
    }

    /// An actor that does not remember the fetch in flight: while one call awaits it, the
    /// other cells' calls run on the actor, find no icon, and fetch again (reentrancy, as in R2).
    func testNoFetchInFlightIsCaught() throws {
        let refetches = try changed(
            Self.id, .solution, "        if let request = fetching[name] { return await request.value }\n", "")
        let report = checkedReport(refetches)
        XCTAssertEqual(report[Self.resultsCheck]?.passed, false)
        XCTAssertTrue(
            report[Self.resultsCheck]?.got.contains("a=5") == true, "\(String(describing: report[Self.resultsCheck]))")
        for name in [Self.attributesCheck, Self.mainActorCheck] {
            XCTAssertEqual(report[name]?.passed, true, "\(String(describing: report[name]))")
        }
    }

    /// Another fix: the state lives on the main actor (where the cells are), the fetch runs on
    /// a global queue and hops back with a main-actor task.
    func testAMainActorClassPassesToo() {
        let report = checkedReport(Self.mainActorClass)
        for result in report.values { XCTAssertTrue(result.passed, "\(result)") }
    }

    /// The shipped class's racy dictionaries can leave its workload spinning for ever (seen
    /// once in the two-way proof: every check then read "not run"). A workload that never ends
    /// is stopped at half the check program's time, so the checks it feeds fail by name, well
    /// within the limit, and the attributes are still named.
    func testAWorkloadThatNeverEndsFailsItsChecksWithinTheLimit() throws {
        let spinning = try changed(
            Self.id, .shipped, "            let icon = self.fetch(name)\n",
            "            while IconLoader.activeRequests >= 0 {}\n            let icon = self.fetch(name)\n")
        let runner = ExerciseRunner()
        let started = Date()
        let report = checkedReport(spinning, runner: runner)
        XCTAssertLessThan(Date().timeIntervalSince(started), runner.runTimeout + 30, "compile and checks")
        XCTAssertFalse(report.values.contains { $0.notRun }, "\(report.values.map(\.description))")
        XCTAssertNil(report[ExerciseRunner.finishCheck], "the program ended in time")
        for name in [Self.resultsCheck, Self.mainActorCheck] {
            XCTAssertEqual(report[name]?.passed, false, "\(String(describing: report[name]))")
            XCTAssertTrue(report[name]?.got.contains("no answer within") == true, "\(String(describing: report[name]))")
        }
        XCTAssertEqual(report[Self.attributesCheck]?.passed, false)
    }

    /// The results by name; the file must compile.
    func checkedReport(_ text: String, runner: ExerciseRunner = ExerciseRunner()) -> [String: CheckResult] {
        let exercise = ExerciseFiles.exercise(Self.id)
        let report = runner.check(exercise, sources: ExerciseFiles.sources(exercise, text: text))
        XCTAssertEqual(report.results.first?.passed, true, report.results.map(\.description).joined(separator: "\n"))
        return Dictionary(report.results.map { ($0.name, $0) }) { first, _ in first }
    }

    static let lockedButUnchecked = """
        import Foundation

        // The 2010 fix: locks everywhere. Safe now, but the compiler still checks nothing.
        // @unchecked: `lock` guards `icons` and `waiting`.
        public final class IconLoader: @unchecked Sendable {
            private let fetch: @Sendable (String) -> [UInt8]
            private let lock = NSLock()
            private var icons: [String: [UInt8]] = [:]
            private var waiting: [String: [@Sendable ([UInt8]) -> Void]] = [:]
            private static let counterLock = NSLock()
            nonisolated(unsafe) private static var requests = 0  // guarded by counterLock
            public static var activeRequests: Int { counterLock.withLock { requests } }

            public init(fetch: @escaping @Sendable (String) -> [UInt8]) {
                self.fetch = fetch
            }

            public func loadIcon(named name: String, completion: @escaping @Sendable ([UInt8]) -> Void) {
                enum Next { case cached([UInt8]), waits, fetches }
                let next: Next = lock.withLock {
                    if let icon = icons[name] { return .cached(icon) }
                    if waiting[name] != nil {
                        waiting[name]?.append(completion)
                        return .waits
                    }
                    waiting[name] = [completion]
                    return .fetches
                }
                switch next {
                case .cached(let icon): DispatchQueue.main.async { completion(icon) }
                case .waits: return
                case .fetches:
                    IconLoader.counterLock.withLock { IconLoader.requests += 1 }
                    DispatchQueue.global().async {
                        let icon = self.fetch(name)
                        IconLoader.counterLock.withLock { IconLoader.requests -= 1 }
                        let callers = self.lock.withLock {
                            self.icons[name] = icon
                            return self.waiting.removeValue(forKey: name) ?? []
                        }
                        DispatchQueue.main.async { for caller in callers { caller(icon) } }
                    }
                }
            }
        }
        """

    static let mainActorClass = """
        import Foundation

        @MainActor
        public final class IconLoader {
            private let fetch: @Sendable (String) -> [UInt8]
            private var icons: [String: [UInt8]] = [:]
            private var waiting: [String: [@MainActor ([UInt8]) -> Void]] = [:]
            public static var activeRequests = 0

            public nonisolated init(fetch: @escaping @Sendable (String) -> [UInt8]) {
                self.fetch = fetch
            }

            public func loadIcon(named name: String, completion: @escaping @MainActor ([UInt8]) -> Void) {
                if let icon = icons[name] {
                    completion(icon)
                    return
                }
                if waiting[name] != nil {
                    waiting[name]?.append(completion)
                    return
                }
                waiting[name] = [completion]
                IconLoader.activeRequests += 1
                let fetch = self.fetch
                DispatchQueue.global().async {
                    let icon = fetch(name)
                    Task { @MainActor in self.finish(name, icon) }
                }
            }

            private func finish(_ name: String, _ icon: [UInt8]) {
                IconLoader.activeRequests -= 1
                icons[name] = icon
                for caller in waiting.removeValue(forKey: name) ?? [] { caller(icon) }
            }
        }
        """
}
