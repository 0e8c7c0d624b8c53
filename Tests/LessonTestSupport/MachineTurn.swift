import Testing

/// Swift Testing runs the tests of every suite of a process side by side. A test that weighs
/// time (a worst freeze against another, a bound in seconds) and a test that loads every core
/// must not run beside each other: `@Test(.machineTurn)` (or `@Suite(.machineTurn)`, for the
/// whole suite at once) waits until no other test holds the turn, and holds it while it runs.
/// Tests that only check words and counts leave it alone and run beside anything.
public struct MachineTurn: TestTrait, SuiteTrait, TestScoping {
    // `@concurrent` as the protocol spells it: with `NonisolatedNonsendingByDefault` on, a
    // plain async closure type would mean one that runs on its caller's actor.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @concurrent @Sendable () async throws -> Void
    ) async throws {
        await Self.turns.take()
        do {
            try await function()
        } catch {
            await Self.turns.give()
            throw error
        }
        await Self.turns.give()
    }

    /// One turn for the whole process, handed on in the order it was asked for.
    static let turns = Turns()

    actor Turns {
        private var held = false
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func take() async {
            guard held else {
                held = true
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func give() {
            if waiting.isEmpty {
                held = false
            } else {
                waiting.removeFirst().resume()  // the turn passes on: `held` stays true
            }
        }
    }
}

extension Trait where Self == MachineTurn {
    /// The test (or the suite, all of it at once) has the machine to itself among the tests
    /// that ask for it: see `MachineTurn`.
    public static var machineTurn: Self { MachineTurn() }
}
