import Foundation
import LessonTestSupport
import Testing
import WorkshopCore

/// One lesson's built program and its contract, as the suite drives them.
///
/// The lessons are the `Sources/lessonNN` folders, and the template lesson `workshop new lesson`
/// copies (`Sources/lessonTemplate`): a new lesson is checked with no edit here (Package.swift's
/// `lessons` list builds its program before the tests run).
struct Lesson: Sendable {
    /// "lesson03", one per `Sources/lessonNN` folder, in order, then "lessonTemplate".
    static let all: [String] = {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        return folders.filter { $0.wholeMatch(of: /lesson([0-9][0-9]|Template)/) != nil }.sorted()
    }()

    let binary: LessonBinary
    let contract: LessonContract
    var name: String { binary.name }

    /// The built `name` and the contract it prints (`--contract`).
    init(_ name: String) throws {
        binary = try LessonBinary(name)
        let printed = try binary.run(["--contract"], timeout: 60)
        try #require(printed.status == 0, "\(name) --contract: exit status \(printed.status): \(printed.stderr)")
        contract = try LessonContract(json: printed.stdout)
    }

    /// Runs the program with `arguments`; a run that does not end within `timeout` seconds is a
    /// failure of the test (the program is stopped).
    func run(_ arguments: [String], locale: [String: String] = [:], timeout: Double = 90) throws
        -> LessonBinary.Outcome
    {
        let outcome = try binary.run(arguments, timeout: timeout, locale: locale)
        #expect(!outcome.timedOut, "\(name) \(arguments) did not finish within \(timeout) s")
        return outcome
    }

    /// `quick` plus `arguments`, which must end with exit status `status`.
    func quick(_ arguments: [String], locale: [String: String] = [:], status: Int32 = 0) throws -> LessonBinary.Outcome
    {
        let outcome = try run(contract.quick + arguments, locale: locale)
        #expect(outcome.status == status, "\(name) \(contract.quick + arguments): \(outcome.stderr)")
        return outcome
    }

    /// `quick --json` plus `arguments`: the report, read back.
    func document(_ arguments: [String]) throws -> LessonDocument {
        let outcome = try quick(["--json"] + arguments)
        return try #require(
            outcome.document, "\(name) \(arguments): stdout is not one JSON document:\n\(outcome.stdout)")
    }

    /// The runs `--variant choice` makes.
    func runs(_ choice: VariantChoice) -> [String] {
        contract.runs.filter { choice.variants.contains($0.variant) }.map(\.name)
    }

    /// The English sentences in a Japanese run's output (what the contract quotes left out).
    func englishSentences(_ output: String) -> [String] {
        EnglishSentences.lines(in: output, quoted: contract.quoted)
    }

    /// Whether `text` (white space folded, as ArgumentParser wraps `--help` at spaces) holds `phrase`.
    static func folded(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    /// The phrases of `phrases` missing from `output`.
    static func missing(_ phrases: [String], in output: String) -> [String] {
        let text = folded(output)
        return phrases.filter { !text.contains(folded($0)) }
    }

    /// "the no-thread, threaded and async variants" (in English, whatever the tester's locale).
    func variantsFailed(_ names: [String]) -> String {
        guard let last = names.last else { return "" }
        let list = names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " and " + last
        return "the \(list) variant" + (names.count == 1 ? " failed" : "s failed")
    }

    /// The usage error on stderr (its first line, less ArgumentParser's "Error: ", in Japanese "エラー: ").
    static func usageError(_ stderr: String) -> String {
        let line = stderr.split(separator: "\n").first.map(String.init) ?? ""
        guard let prefix = ["Error: ", "エラー: "].first(where: { line.hasPrefix($0) }) else { return line }
        return String(line.dropFirst(prefix.count))
    }

    /// A Japanese locale, as a Japanese learner's shell has it.
    static let japaneseLocale = ["LANG": "ja_JP.UTF-8"]
}
