import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `--edit` and `--edit-cmd`: open the current exercise's file in the learner's editor, at
/// the line of its first TODO.
struct EditOptions: ParsableArguments {
    @Flag(help: ArgumentHelp(localized("Open the exercise's file in $EDITOR.")))
    var edit = false

    @Option(
        help: ArgumentHelp(
            localized(
                "Open the exercise's file with this command, given path:line (e.g. \"code -g\"); implies --edit."),
            valueName: "command"))
    var editCmd: String?

    var wanted: Bool { edit || editCmd != nil }

    /// Opens `exercise`'s first file that still has a TODO (else its first file) and waits for
    /// the editor (a terminal editor needs the terminal until it ends). A missing or failing
    /// editor is a `WorkshopFailure` (exit 1).
    func open(_ exercise: Exercise, in workspace: Workspace) throws {
        let locations = workspace.locations(exercise)
        let location = locations.first { !$0.hasSuffix(":1") } ?? locations[0]
        let path = location.split(separator: ":").first.map(String.init) ?? location
        // `--edit-cmd` gets path:line (editors that understand it: `code -g`, `subl`, `idea --line`
        // take it in their own ways); $EDITOR gets the path, as every editor understands that.
        let command: String
        let argument: String
        if let editCmd, !editCmd.trimmingCharacters(in: .whitespaces).isEmpty {
            (command, argument) = (editCmd, location)
        } else if let editor = ProcessInfo.processInfo.environment["EDITOR"],
            !editor.trimmingCharacters(in: .whitespaces).isEmpty
        {
            (command, argument) = (editor, path)
        } else {
            throw WorkshopFailure(Text.noEditor)
        }
        Style.line(Text.opening(location, command))
        // Through the shell, so "code -g" or "vim -p" split into words as the learner typed them;
        // the file is a separate argument ($1), never pasted into the command line.
        let editor = Process()
        editor.executableURL = URL(fileURLWithPath: "/bin/sh")
        editor.arguments = ["-c", command + " \"$1\"", "workshop-editor", argument]
        editor.currentDirectoryURL = workspace.root
        do {
            try editor.run()
        } catch {
            throw WorkshopFailure(Text.editorFailed(command, "\(error)"))
        }
        editor.waitUntilExit()
        guard editor.terminationReason == .exit, editor.terminationStatus == 0 else {
            let end =
                editor.terminationStatus == 127
                ? localized("command not found (exit status 127)") : Text.exitStatus(editor.terminationStatus)
            throw WorkshopFailure(Text.editorFailed(command, end))
        }
    }
}
