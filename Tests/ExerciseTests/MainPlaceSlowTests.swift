import Foundation
import Testing
import WorkshopCore

@testable import WorkshopTools

/// `MainPlace` in the settings only a program of its own has: a check program's and a lesson
/// program's main (top-level code on the main thread, the main actor served by the main run
/// loop), an async `main` (some check programs' workloads: after a while the main actor runs on
/// another thread, Swift issue 90851), and `dispatchMain()`. One small
/// program, compiled against the ExerciseSupport library the way a check program is, records
/// each place and puts it to the executor's traps (`dispatchPrecondition`,
/// `MainActor.assumeIsolated`): a wrong answer ends it with a crash. XCTest and Swift Testing
/// are `MainPlaceTests` (WorkshopCoreTests).
@Suite(.removing(.mainPlace)) struct MainPlaceSlowTests {
    static let programs = LinkedPrograms.mainPlace

    static let program = #"""
        import Dispatch
        import ExerciseChecks
        import Foundation
        import WorkshopCore

        func confirmed() -> MainPlace {
            let place = MainPlace.here
            guard place.isMain else {
                dispatchPrecondition(condition: .notOnQueue(.main))
                return place
            }
            dispatchPrecondition(condition: .onQueue(.main))
            MainActor.assumeIsolated {}
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

    /// Both programs, compiled once for the suite's tests.
    static let built = Task {
        [
            "sync": try await programs.compile(program + "\n" + syncMain),
            "async": try await programs.compile(program + "\n" + asyncMain),
        ]
    }

    /// The places the program recorded in `setting`, by point: (main queue, main thread, isMain).
    func places(_ setting: String) async throws -> [String: [Bool]] {
        let binary = try #require(try await Self.built.value[setting == "async-main" ? "async" : "sync"])
        let outcome = try await Subprocess.run(binary, [setting], timeout: 60, in: .shared)
        #expect(outcome.succeeded, "\(setting): \(outcome.describeEnd(timeout: 60))\n\(outcome.stderr)")
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
            #expect(places[point]?[0] == true, "\(setting), \(point): the main queue")
            #expect(places[point]?[2] == true, "\(setting), \(point): main")
        }
        for point in Self.offMainPoints { #expect(places[point] == Self.elsewhere, "\(setting), \(point)") }
    }

    /// A check program's and a lesson program's main: queue and thread agree on the main actor,
    /// and disagree only in a `sync` the main thread makes, where the executor says main.
    @Test func theMainRunLoopsMainActorIsMainByQueueAndThread() async throws {
        let places = try await places("run-loop")
        checkShared(places, "run-loop")
        #expect(places["top-level"] == Self.main)
        for point in Self.mainActorPoints { #expect(places[point] == Self.main, "\(point)") }
        #expect(places["sync onto another queue"] == [false, true, true])
    }

    /// An async `main`: the main actor is main by its queue; its thread is the main one at first
    /// and, once the main thread has left the main queue, another one (issue 90851). Inside a
    /// `sync` from such a thread neither answer is main's (the one place `MainPlace` misses).
    @Test func anAsyncMainsMainActorIsMainByItsQueue() async throws {
        let places = try await places("async-main")
        checkShared(places, "async-main")
        #expect(places["top-level"] == Self.main)
        let sync = places["sync onto another queue"]
        #expect(sync == [false, true, true] || sync == Self.elsewhere, "\(String(describing: sync))")
    }

    /// `dispatchMain()`: the main queue is served by other threads from the start, so the thread
    /// says "not main" where the executor (and `MainPlace`) says main.
    @Test func underDispatchMainTheMainActorIsMainByItsQueueNotItsThread() async throws {
        let places = try await places("dispatch-main")
        checkShared(places, "dispatch-main")
        for point in Self.mainActorPoints { #expect(places[point] == [true, false, true], "\(point)") }
        #expect(places["sync onto another queue"] == Self.elsewhere, "what MainPlace cannot see")
    }
}

extension LinkedPrograms {
    static let mainPlace = LinkedPrograms("main-place")
}
