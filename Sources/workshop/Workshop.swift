import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

@main
struct Workshop: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workshop",
        abstract: localized("Your way through the Sakusaku Workshop: exercises, checks, hints and progress."),
        discussion: localized(
            """
            Run it from the package root (or anywhere inside it): `swift run workshop`. Your progress \
            is kept in .workshop-progress at the package root (git ignores it). WORKSHOP_ROOT points \
            the CLI at another copy of the workshop. NO_COLOR turns colour off. \
            `--lang ja` (or a Japanese locale, LANG=ja_JP.UTF-8) speaks Japanese; `--lang en` English.
            """),
        subcommands: [
            List.self, Start.self, Next.self, Check.self, Hint.self, Watch.self, Reset.self, Solution.self, Verify.self,
            Join.self, Leave.self, Send.self, Present.self, Docs.self, Sync.self, New.self, CapturesCommand.self,
        ],
        defaultSubcommand: List.self
    )

    /// `--lang` may come anywhere, before the command's name too (`workshop --lang ja check NN`):
    /// `Language.current` has read it already, so it is taken out here, after checking its value.
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var index = 0
        while index < arguments.count, arguments[index] != "--" {
            let argument = arguments[index]
            var value: String?
            if argument == "--lang" {
                value = index + 1 < arguments.count ? arguments[index + 1] : ""
                arguments.removeSubrange(index..<min(index + 2, arguments.count))
            } else if argument.hasPrefix("--lang=") {
                value = String(argument.dropFirst("--lang=".count))
                arguments.remove(at: index)
            } else {
                index += 1
            }
            if let value, Language(rawValue: value.lowercased()) == nil {
                exit(withError: ValidationError(localized(format: "--lang takes en or ja (got \"%@\")", value)))
            }
        }
        main(arguments)
    }

    /// A word that is no command's name reaches `list` (the default command), which says so
    /// and names the commands.
    static func unknownCommand(_ word: String) -> ExitCode {
        Style.warnLine(localized(format: "workshop: there is no command \"%@\". The commands are:", word))
        for command in configuration.subcommands {
            Style.warnLine("  \(Style.pad(command._commandName, 9)) \(command.configuration.abstract)")
        }
        Style.warnLine(
            localized(format: "For example: swift run workshop check %@", ExerciseCatalog.exercises.first?.id ?? "NN"))
        return ExitCode(64)
    }
}

/// "R9", "09" or "9": an exercise id as typed; an unknown one is a usage error that lists the ids.
func exerciseArgument(_ text: String) throws -> Exercise {
    guard let exercise = ExerciseCatalog.exercise(id: text) else {
        throw ValidationError(
            localized(format: "there is no exercise \"%@\". The exercises are %@.", text, "\(ExerciseCatalog.ids)"))
    }
    return exercise
}

/// A failure the CLI explains in one sentence; exits with status 1.
struct WorkshopFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
