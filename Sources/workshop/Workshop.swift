import ArgumentParser
import ExerciseChecks
import Foundation

@main
struct Workshop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workshop",
        abstract: "Your way through the Sakusaku Workshop: exercises, checks, hints and progress.",
        discussion: """
        Run it from the package root (or anywhere inside it): `swift run workshop`. Your progress \
        is kept in .workshop-progress at the package root (git ignores it). WORKSHOP_ROOT points \
        the CLI at another copy of the workshop. NO_COLOR turns colour off.
        """,
        subcommands: [List.self, Check.self, Hint.self, Watch.self, Reset.self, Verify.self, RunChecks.self],
        defaultSubcommand: List.self
    )
}

/// "R1", "03" or "3": an exercise id as typed.
struct ExerciseArgument: ExpressibleByArgument {
    let suite: any ExerciseCheckSuite.Type

    init?(argument: String) {
        guard let suite = ExerciseCatalog.suite(id: argument) else { return nil }
        self.suite = suite
    }

    static var allValueStrings: [String] { ExerciseCatalog.suites.map { $0.id } }
}

/// A failure the CLI explains in one sentence; exits with status 1.
struct WorkshopFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
