import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `workshop`'s own texts (`Sources/workshop/Resources/ja.lproj/Localizable.strings`): the key is
/// the English text, the value its Japanese (see WorkshopCore's `LocalizedTexts`).
let localized = LocalizedTexts { .module }

/// The sentences `workshop` says in more than one place, or that take some building. Each is
/// written once, in English; its Japanese is in the table (`localized`). Commands, paths,
/// check names and the compiler's messages stay as they are (they are what the learner types
/// or searches for).
enum Text {
    // MARK: Exercises and their states

    /// The exercise's title in the learner's language (from its `.meta/exercise.json`).
    static func title(_ exercise: Exercise) -> String {
        Localized.language == .ja ? exercise.titleJapanese : exercise.title
    }

    static func exercise(_ exercise: Exercise) -> String {
        localized(format: "Exercise %@: %@", exercise.id, title(exercise))
    }

    static func status(_ status: Workspace.Status) -> String {
        switch status {
        case .done: localized("done")
        case .failing: localized("failing")
        case .notStarted: localized("not started")
        }
    }

    static func progress(done: Int, of total: Int) -> String {
        total == 1
            ? localized(format: "%d of 1 exercise done", done)
            : localized(format: "%1$d of %2$d exercises done", done, total)
    }

    static var changedSincePassed: String { localized("changed since it passed") }
    static var changedSinceChecked: String { localized("changed since your last check") }
    static func missing(_ files: String, _ id: String) -> String {
        localized(format: "%@ missing: swift run workshop reset %@", files, id)
    }

    // MARK: list

    static var listHeader: (id: String, lesson: String, exercise: String, status: String) {
        (id: "id", lesson: localized("lesson"), exercise: localized("exercise"), status: localized("status"))
    }
    static var noExercise: String { localized("(no exercise)") }
    static var noLesson: String { localized("(no lesson: belongs to all of them)") }
    static var currentMarker: String {
        localized("> is the current exercise: `swift run workshop check` checks it.")
    }
    static var nothingLeft: String {
        localized(
            "Next: nothing left. Every exercise passes its checks. Well done! (Try `swift test --sanitize=thread`.)")
    }
    static func nextNotStarted(_ exercise: Exercise, readme: String, files: String) -> String {
        localized(
            format:
                "Next: exercise %1$@, %2$@. Read %3$@, edit %4$@, then `swift run workshop check %1$@` (or `swift run workshop watch %1$@`).",
            exercise.id, title(exercise), readme, files)
    }
    static func nextFailing(_ exercise: Exercise, files: String) -> String {
        localized(
            format:
                "Next: keep going with exercise %1$@ (%2$@): `swift run workshop check %1$@`; stuck? `swift run workshop hint %1$@`.",
            exercise.id, files)
    }
    static func nextAfterDone(_ done: Exercise, _ following: Exercise) -> String {
        localized(
            format:
                "Exercise %1$@ is done. Next: exercise %2$@, %3$@: `swift run workshop next` (or `swift run workshop start %2$@`).",
            done.id, following.id, title(following))
    }

    // MARK: start and next

    static func startRead(_ readme: String, _ files: String) -> String {
        localized(format: "Read %@, change %@,", readme, files)
    }
    static var startThen: String {
        localized("then `swift run workshop check` (or `swift run workshop watch`). Stuck? `swift run workshop hint`.")
    }
    static func nowCurrent(_ exercise: Exercise) -> String {
        localized(format: "Exercise %@ is now the current exercise.", exercise.id)
    }

    // MARK: check

    static var wanted: String { localized("wanted:") }
    static var got: String { localized("got:") }
    static func hintHelps(_ hint: Int, _ id: String) -> String {
        localized(format: "hint %1$d helps here: swift run workshop hint %2$@ %1$d", hint, id)
    }
    static func timings(compiled: Double?, ran: Double?) -> String {
        let compile =
            compiled.map { localized(format: "compiled in %.1f s", $0) }
            ?? localized("built before, not compiled again")
        guard let ran else { return "(\(compile))" }
        return localized(format: "(%@; the checks ran in %.1f s)", compile, ran)
    }
    static func allPass(_ count: Int) -> String {
        count == 1 ? localized("The 1 check passes.") : localized(format: "All %d checks pass.", count)
    }
    /// After a check the program did not get to (it crashed or hung first).
    static var notRun: String { localized("(not run: the program stopped before it)") }
    static var readTheFirstFail: String { localized("Read the first FAIL above, change your file, check again.") }
    /// "1 of 3 checks fails": `failed` of `total`, in English's singular and plural.
    static func failing(_ failed: Int, of total: Int) -> String {
        switch (total == 1, failed == 1) {
        case (true, true): localized(format: "%1$d of %2$d check fails", failed, total)
        case (true, false): localized(format: "%1$d of %2$d check fail", failed, total)
        case (false, true): localized(format: "%1$d of %2$d checks fails", failed, total)
        case (false, false): localized(format: "%1$d of %2$d checks fail", failed, total)
        }
    }
    /// The unmistakable last line of a check.
    static func verdict(_ id: String, failed: Int, of total: Int, notRun: Int = 0) -> String {
        if failed == 0 && notRun == 0 { return localized(format: "exercise %@ passed", id) }
        return localized(format: "exercise %1$@: %2$@", id, failing(failed, of: total))
            + (notRun > 0 ? localized(format: ", %d not run", notRun) : "")
    }
    // MARK: check --svg

    static func noTimeline(_ id: String) -> String {
        localized(
            format:
                "exercise %@'s checks record no timeline to draw: --svg and --html work with the exercises whose checks do (e.g. the first GCD one)",
            id)
    }
    static func pictureTitle(_ exercise: Exercise) -> String {
        localized(format: "Exercise %@: your run and the reference's", exercise.id)
    }
    static var pictureSubtitle: String {
        localized("each lane is where the work ran; shaded: the main thread frozen")
    }
    static var pictureYours: String { localized("your code") }
    static var pictureReference: String { localized("reference") }
    static var pictureAllPass: String { localized("every check passes") }
    static func pictureFailing(_ failed: Int, of total: Int) -> String { failing(failed, of: total) }
    static func pictureWritten(_ path: String) -> String { localized(format: "Picture written to %@", path) }

    static var buildingLibrary: String { localized("Building the checks' library first:") }

    // MARK: verify

    static func busyStarted(_ count: Int) -> String {
        count == 1
            ? localized(
                "Keeping 1 core busy meanwhile (a process like `yes > /dev/null`, stopped at the end or on Ctrl-C).")
            : localized(
                format:
                    "Keeping %d cores busy meanwhile (processes like `yes > /dev/null`, stopped at the end or on Ctrl-C).",
                count)
    }
    static func round(_ round: Int, of total: Int, jobs: Int) -> String {
        localized(
            format: "Round %1$d of %2$d: every copy as shipped and every reference, %3$d at a time...", round, total,
            jobs)
    }
    static func verifyPassed(_ ids: [String], repeats: Int) -> String {
        let what =
            ids.count == 1
            ? localized(format: "verify: exercise %@ ships unsolved and its reference passes", ids[0])
            : localized(format: "verify: all %d exercises ship unsolved and their references pass", ids.count)
        guard repeats > 1 else { return what }
        return what + localized(format: ", in each of %d rounds", repeats)
    }
    /// "verify: not right: R1 (1 of 1 exercise; " + figures + ")."
    static func verifyFailed(_ bad: [String], of total: Int, figures: String) -> String {
        let ids = bad.joined(separator: ", ")
        return total == 1
            ? localized(format: "verify: not right: %1$@ (%2$d of 1 exercise; %3$@).", ids, bad.count, figures)
            : localized(
                format: "verify: not right: %1$@ (%2$d of %3$d exercises; %4$@).", ids, bad.count, total, figures)
    }
    /// "41 s; 2 at a time; rounds 19, 9, 9 s; 2 busy cores; slowest reference run: 03a, 1.2 s".
    static func verifyFigures(
        seconds: Double, rounds: [Double], jobs: Int, busy: Int, slowestReference: (String, Double)?
    ) -> String {
        var parts = [localized(format: "%.0f s", seconds)]
        parts.append(localized(format: "%d at a time", jobs))
        if rounds.count > 1 {
            let each = rounds.map { String(format: "%.0f", $0) }.joined(separator: ", ")
            parts.append(localized(format: "rounds %@ s", each))
        }
        if busy > 0 {
            parts.append(busy == 1 ? localized("1 busy core") : localized(format: "%d busy cores", busy))
        }
        if let (id, slowest) = slowestReference, slowest > 0 {
            parts.append(localized(format: "slowest reference run: %@, %.1f s", id, slowest))
        }
        return parts.joined(separator: localized("; "))
    }

    // MARK: hint

    static func hintsHeader(_ exercise: Exercise, shown: Int, of total: Int) -> String {
        localized(format: "Hints for exercise %@: %@", exercise.id, title(exercise)) + "  "
            + localized(format: "(%1$d of %2$d)", shown, total)
    }
    static func askAgain(_ next: Int, _ id: String) -> String {
        localized(format: "Ask again for hint %d: swift run workshop hint %@", next, id)
    }
    static func lastHint(_ readme: String) -> String {
        localized(format: "That was the last hint. %@ says what each check wants.", readme)
    }
    static func noSuchHint(_ number: Int, _ id: String, count: Int) -> String {
        count == 1
            ? localized(format: "exercise %1$@ has 1 hint: ask for 1 to %2$d (got %3$d)", id, count, number)
            : localized(format: "exercise %1$@ has %2$d hints: ask for 1 to %2$d (got %3$d)", id, count, number)
    }
    static func noHints(_ file: String) -> String { localized(format: "no numbered hints in %@", file) }

    // MARK: reset

    static func resetQuestion(_ names: String) -> String {
        localized(format: "Reset %@ to the shipped version? Your version is kept as a backup. [y/N] ", names)
    }
    static var nothingChanged: String { localized("Nothing changed.") }
    static func alreadyShipped(_ names: String) -> String {
        localized(format: "%@ already as shipped. Nothing to do.", names)
    }
    static func restoredHeader(_ count: Int) -> String {
        count == 1
            ? localized("Restored 1 file as shipped; hints start over:")
            : localized(format: "Restored %d files as shipped; hints start over:", count)
    }
    static var hintsStartOver: String { localized("Hints start over.") }
    static func yourVersion(_ backup: String) -> String { localized(format: "your version: %@", backup) }
    static var wasMissing: String { localized("(it was missing)") }
    static func resetNeedsYes(_ command: String) -> String {
        localized(format: "reset needs a yes and there is no terminal to ask: run `%@ --yes`", command)
    }
    static func isYes(_ answer: String) -> Bool { ["y", "yes", "はい"].contains(answer) }

    // MARK: solution

    static func solutionHidden(_ exercise: Exercise, failed: Int, of total: Int) -> String {
        localized(
            format:
                "Exercise %1$@ does not pass its checks yet (%2$d of %3$d fail), so its reference solution stays hidden. Get there first:",
            exercise.id, failed, total)
    }
    static func solutionWay(_ id: String) -> [String] {
        [
            localized(format: "  swift run workshop hint %@     one more hint each time you ask", id),
            localized(format: "  swift run workshop check %@    what each check wants, and what it got", id),
        ]
    }
    static func solutionHeader(_ exercise: Exercise) -> String {
        localized(format: "Exercise %@: %@, the reference solution", exercise.id, title(exercise))
    }
    static var oneWay: String { localized("One way to pass every check; yours passes too, and may well differ.") }
    static var yoursAgainstReference: String {
        localized("Your file against the reference (- yours, + reference):")
    }
    static var sameAsReference: String { localized("Your file is the reference, byte for byte.") }

    // MARK: editor

    static var noEditor: String {
        localized("no editor to open: set EDITOR (e.g. `export EDITOR=vim`) or pass --edit-cmd \"code -g\"")
    }
    static func editorFailed(_ command: String, _ end: String) -> String {
        localized(format: "the editor `%@` did not run: %@", command, end)
    }
    static func opening(_ location: String, _ command: String) -> String {
        localized(format: "Opening %@ with %@...", location, command)
    }
    /// How a program ended: "exit status 1".
    static func exitStatus(_ status: Int32) -> String { localized(format: "exit status %d", Int(status)) }

    // MARK: progress

    static func progressUnreadable(_ name: String, keptAs aside: String?) -> String {
        guard let aside else {
            return localized(
                format: "workshop: %@ could not be read; rebuilding it from the checks of your files.", name)
        }
        return localized(
            format:
                "workshop: %1$@ could not be read (the old one is kept as %2$@); rebuilding it from the checks of your files.",
            name, aside)
    }
    static func rebuilt(_ id: String, passed: Bool) -> String {
        passed
            ? localized(format: "workshop: exercise %@ checked again: passes", id)
            : localized(format: "workshop: exercise %@ checked again: fails", id)
    }
}

/// What `docs` says.
extension Text {
    static var doccMissing: String {
        localized(
            "docc was not found. It ships with the Swift toolchain (usr/bin/docc beside swift, Swift 5.6 or later): install the toolchain from swift.org, or point DOCC=/path/to/docc at one."
        )
    }

    static func docsFailed(_ language: String, _ reason: String) -> String {
        localized(format: "the %@ tutorials could not be built: %@", language, reason)
    }

    static func docsBusy(_ seconds: Int) -> String {
        localized(
            format:
                "another `workshop docs` is building the tutorials in this package and did not end within %d s: wait for it (or end it), then run this again",
            seconds)
    }

    static func docsBuilt(_ language: String, _ path: String) -> String { "\(language): \(path)" }

    static func docsDone(_ seconds: String) -> String {
        localized(
            format: "Built in %@ s. To serve them to the room, run this and open the addresses below:", seconds)
    }
}
