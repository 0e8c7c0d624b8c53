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
        subcommands: [
            List.self, Start.self, Check.self, Hint.self, Watch.self, Reset.self, Solution.self, Verify.self,
        ],
        defaultSubcommand: List.self
    )

    /// A word that is no command's name reaches `list` (the default command), which says so
    /// and names the commands.
    static func unknownCommand(_ word: String) -> ExitCode {
        Style.warnLine("workshop: there is no command \"\(word)\". The commands are:")
        for command in configuration.subcommands {
            Style.warnLine("  \(Style.pad(command._commandName, 9)) \(command.configuration.abstract)")
        }
        Style.warnLine("For example: swift run workshop check 03")
        return ExitCode(64)
    }
}

/// "R1", "03" or "3": an exercise id as typed; an unknown one is a usage error that lists the ids.
func exerciseArgument(_ text: String) throws -> Exercise {
    guard let exercise = ExerciseCatalog.exercise(id: text) else {
        throw ValidationError("there is no exercise \"\(text)\". The exercises are \(ExerciseCatalog.ids).")
    }
    return exercise
}

/// A failure the CLI explains in one sentence; exits with status 1.
struct WorkshopFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
