import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// What the tests of one exercise's checks share: a file changed from the shipped copy or the
/// reference, checked the way `workshop check` checks a learner's file.
extension XCTestCase {
    /// Which checks passed, by name; the file must compile.
    func checked(_ id: String, _ text: String) -> [String: Bool] {
        let exercise = ExerciseFiles.exercise(id)
        let report = ExerciseRunner().check(exercise, sources: ExerciseFiles.sources(exercise, text: text))
        XCTAssertEqual(report.results.first?.passed, true, report.results.map(\.description).joined(separator: "\n"))
        return Dictionary(report.results.map { ($0.name, $0.passed) }) { first, _ in first }
    }

    /// The copy as shipped or the reference of `id`, with `old` replaced by `new`.
    func changed(_ id: String, _ kind: ExerciseFiles.Kind, _ old: String, _ new: String) throws -> String {
        let text = try ExerciseFiles.text(ExerciseFiles.exercise(id), kind)
        XCTAssertTrue(text.contains(old), "the \(kind) file of \(id) changed shape: no \(old)")
        return text.replacingOccurrences(of: old, with: new)
    }

}
