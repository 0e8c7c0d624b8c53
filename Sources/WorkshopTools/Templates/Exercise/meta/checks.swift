import ExerciseChecks
import Foundation

/// The checks of exercise NNx, each declared once in both languages, in the order they report.
/// TODO: the exercise's own checks. Decide on evidence that load cannot fake (where the work
/// ran, what was in flight together), not on a stopwatch.
enum ExerciseNNxChecks {
    static let answers = Check(
        "gives the answer", ja: "答えを返す", wanted: "answer() returns 42", ja: "answer() が 42 を返す", hint: 1)
    static let all = [answers]

    static func run() -> [CheckResult] {
        let got = Solution.answer()
        return [
            answers.result(got == 42, got: localized("answer() returned \(got)", ja: "answer() は \(got) を返しました"))
        ]
    }
}
