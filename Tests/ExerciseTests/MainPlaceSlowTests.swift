import Foundation
import WorkshopCore
import XCTest

@testable import WorkshopTools

/// `MainPlace` in the settings only a program of its own has: a check program's and a lesson
/// program's main (top-level code on the main thread, the main actor served by the main run
/// loop), an async `main` (some check programs' workloads: after a while the main actor runs on
/// another thread, Swift issue 90851), and `dispatchMain()`. One small
/// program, compiled against the ExerciseSupport library the way a check program is, records
/// each place and puts it to the executor's traps (`dispatchPrecondition`,
/// `MainActor.assumeIsolated`): a wrong answer ends it with a crash. XCTest and Swift Testing
/// are `MainPlaceTests` (WorkshopCoreTests).
final class MainPlaceSlowTests: XCTestCase {
    static let program = #"""
        import Dispatch
        import ExerciseChecks
        import Foundation
        import WorkshopCore

        func confirmed() -> MainPlace {
            let place = MainPlace.here
            if place.isMain {
                dispatchPrecondition(condition: .onQueue(.main))
                MainActor.assumeIsolated {}
            } else {
                dispatchPrecondition(condition: .notOnQueue(.main))
            }
            return place
        }
        func record(_ point: String, _ place: MainPlace) {
            let line = "PLACE \(point)|\(place.mainQueue)|\(place.mainThread)|\(place.isMain)\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        }
        /// Where `MainPlace` cannot see the executor: not put to the traps.
        func unconfirmed() -> MainPlace { MainPlace.here }
        @concurrent func offTheActor() async -> MainPlace { confirmed() }
        actor Holder { func place() -> MainPlace { confirmed() } }

        /// The same points in every setting: on the main actor before and after its awaits, and off it.
        @MainActor func points() async {
            record("main actor", confirmed())
            record("@concurrent", await offTheActor())
            record("main actor after @concurrent", confirmed())
            record("Task.detached", await Task.detached { confirmed() }.value)
            record("an actor", await Holder().place())
            record("DispatchQueue.global()", await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: confirmed()) }
            })
            // From the main thread, main by its thread. From main-queue work on another thread
            // (async main, dispatchMain), neither is main's, though dispatch still holds the
            // main queue for it: the one place `MainPlace` misses, so no check runs there.
            record(
                "sync onto another queue",
                DispatchQueue(label: "other").sync { Thread.isMainThread ? confirmed() : unconfirmed() })
            record("main actor at the end", confirmed())
        }

        """#

    /// A synchronous top-level: a check program's and a lesson program's main (the main thread
    /// turns the main run loop), or `dispatchMain()`.
    static let syncMain = #"""
        switch CommandLine.arguments.dropFirst().first {
        case "run-loop":
            record("top-level", confirmed())
            MainActor.assumeIsolated {
                let done = MainActorFlag()
                Task { @MainActor in
                    await points()
                    done.isSet = true
                }
                if !MainLoop.run(timeout: 30, until: { done.isSet }) { exit(3) }
            }
        case "dispatch-main":
            Task { @MainActor in
                await points()
                exit(0)
            }
            dispatchMain()
        default:
            exit(2)
        }
        """#

    /// A top-level that awaits: an async `main`, as some check programs have.
    static let asyncMain = #"""
        record("top-level", confirmed())
        await points()
        """#

    /// Compiles the program once, the way a check program is compiled (Swift 6, the package's
    /// upcoming features, linked with ExerciseSupport).
    static let built: Result<[String: String], Error> = Result {
        ["sync": try compile(program + "\n" + syncMain), "async": try compile(program + "\n" + asyncMain)]
    }

    /// Where the programs are built; removed when the class's tests have run.
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("main-place-\(UUID().uuidString)")

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    static func compile(_ source: String) throws -> String {
        let toolchain = Toolchain.current
        let folder = folder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(source.utf8).write(to: folder.appendingPathComponent("main.swift"))
        let bin = toolchain.binDirectory.path
        var arguments =
            ExerciseRunner.languageFlags + ["-suppress-warnings", "-Onone", "-module-name", "MainPlaceProgram"]
        arguments += ["-I", bin + "/Modules"] + toolchain.moduleMapDirectories.flatMap { ["-I", $0] }
        arguments += ["-L", bin, "-lExerciseSupport", "-Xlinker", "-rpath", "-Xlinker", bin]
        arguments += ["-module-cache-path", ExerciseRunner(toolchain: toolchain).moduleCache.path]
        if toolchain.threadSanitizer { arguments.append("-sanitize=thread") }
        let output = folder.appendingPathComponent("main-place").path
        let compile = try Subprocess.run(
            "swiftc", arguments + ["-o", output, "main.swift"], currentDirectory: folder.path, timeout: 300)
        guard compile.succeeded else {
            throw NSError(
                domain: "MainPlaceSlowTests", code: 1,
                userInfo: [
                    NSLocalizedDescriptionKey: compile.stdout + compile.stderr + compile.describeEnd(timeout: 300)
                ])
        }
        return output
    }

    /// The places the program recorded in `setting`, by point: (main queue, main thread, isMain).
    func places(_ setting: String) throws -> [String: [Bool]] {
        let binary = try XCTUnwrap(try Self.built.get()[setting == "async-main" ? "async" : "sync"])
        let outcome = try Subprocess.run(binary, [setting], timeout: 60)
        XCTAssertTrue(outcome.succeeded, "\(setting): \(outcome.describeEnd(timeout: 60))\n\(outcome.stderr)")
        var places: [String: [Bool]] = [:]
        for line in outcome.stdout.split(separator: "\n") where line.hasPrefix("PLACE ") {
            let fields = line.dropFirst("PLACE ".count).split(separator: "|").map(String.init)
            places[fields[0]] = fields.dropFirst().map { $0 == "true" }
        }
        print("MainPlace, \(setting) (point|main queue|main thread|isMain):\n" + outcome.stdout)
        return places
    }

    static let main = [true, true, true]
    static let elsewhere = [false, false, false]
    static let mainActorPoints = ["main actor", "main actor after @concurrent", "main actor at the end"]
    static let offMainPoints = ["@concurrent", "Task.detached", "an actor", "DispatchQueue.global()"]

    /// What every setting shares: the main actor is main by its queue (whatever the thread), and
    /// work sent off it is main by neither.
    func checkShared(_ places: [String: [Bool]], _ setting: String) {
        for point in Self.mainActorPoints {
            XCTAssertEqual(places[point]?[0], true, "\(setting), \(point): the main queue")
            XCTAssertEqual(places[point]?[2], true, "\(setting), \(point): main")
        }
        for point in Self.offMainPoints { XCTAssertEqual(places[point], Self.elsewhere, "\(setting), \(point)") }
    }

    /// A check program's and a lesson program's main: queue and thread agree on the main actor,
    /// and disagree only in a `sync` the main thread makes, where the executor says main.
    func testTheMainRunLoopsMainActorIsMainByQueueAndThread() throws {
        let places = try places("run-loop")
        checkShared(places, "run-loop")
        XCTAssertEqual(places["top-level"], Self.main)
        for point in Self.mainActorPoints { XCTAssertEqual(places[point], Self.main, point) }
        XCTAssertEqual(places["sync onto another queue"], [false, true, true])
    }

    /// An async `main`: the main actor is main by its queue; its thread is the main one at first
    /// and, once the main thread has left the main queue, another one (issue 90851). Inside a
    /// `sync` from such a thread neither answer is main's (the one place `MainPlace` misses).
    func testAnAsyncMainsMainActorIsMainByItsQueue() throws {
        let places = try places("async-main")
        checkShared(places, "async-main")
        XCTAssertEqual(places["top-level"], Self.main)
        let sync = places["sync onto another queue"]
        XCTAssertTrue(sync == [false, true, true] || sync == Self.elsewhere, "\(String(describing: sync))")
    }

    /// `dispatchMain()`: the main queue is served by other threads from the start, so the thread
    /// says "not main" where the executor (and `MainPlace`) says main.
    func testUnderDispatchMainTheMainActorIsMainByItsQueueNotItsThread() throws {
        let places = try places("dispatch-main")
        checkShared(places, "dispatch-main")
        for point in Self.mainActorPoints { XCTAssertEqual(places[point], [true, false, true], point) }
        XCTAssertEqual(places["sync onto another queue"], Self.elsewhere, "what MainPlace cannot see")
    }
}
