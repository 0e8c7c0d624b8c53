import ExerciseChecks
import Foundation
import WorkshopTools

/// The exercises the CLI's tests use as examples, picked by what they are, never by id: a new,
/// renamed or removed exercise needs no edit in these tests (ExerciseIdsTests keeps it so).
enum Subject {
    static var all: [Exercise] { ExerciseCatalog.exercises }

    /// Quick, deterministic checks (no network, thread or database): the first "pure" exercise.
    static var pure: Exercise { pick("an exercise with the trait \"pure\"") { $0.traits.contains("pure") } }

    /// An exercise whose checks record a timeline (`check --svg` draws it).
    static var timeline: Exercise { pick("an exercise with the trait \"timeline\"") { $0.traits.contains("timeline") } }

    /// A lesson's exercise whose file imports its lesson's kit (the editor jumps into it).
    static var usesItsKit: Exercise {
        pick("an exercise that imports its lesson's kit") { exercise in
            guard let lesson = exercise.lesson, exercise.files.count == 1 else { return false }
            let text =
                (try? String(
                    contentsOf: ExerciseRoot.builtFrom.appendingPathComponent(exercise.paths[0]), encoding: .utf8))
                ?? ""
            return text.contains("import Lesson\(lesson)Kit")
        }
    }

    /// The data-race exercise: its check also builds and runs a thread-sanitized program.
    static var dataRace: Exercise { pick("a data-race exercise") { $0.threadSanitizedWorkload } }

    /// A lesson's second exercise: its id ends in a letter.
    static var lettered: Exercise {
        pick("a lettered exercise") { $0.lesson != nil && $0.id.last?.isLetter == true }
    }

    /// The exercises that are neither pure nor the data race, in catalog order.
    static var ordinary: [Exercise] { all.filter { !$0.traits.contains("pure") && !$0.threadSanitizedWorkload } }

    /// The exercise after `exercise` in catalog order (the first after the last).
    static func after(_ exercise: Exercise) -> Exercise {
        let index = all.firstIndex { $0.id == exercise.id } ?? -1
        return all[(index + 1) % all.count]
    }

    private static func pick(_ what: String, _ test: (Exercise) -> Bool) -> Exercise {
        guard let exercise = all.first(where: test) else { preconditionFailure("the catalog has no \(what)") }
        return exercise
    }
}
