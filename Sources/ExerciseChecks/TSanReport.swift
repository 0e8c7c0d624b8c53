import Foundation
import WorkshopCore

/// The gist of a ThreadSanitizer report on stderr: how many races, and where, demangled.
public struct TSanReport: Sendable {
    public var races: Int
    /// The first report in one line: its kind and its two accesses, with demangled names.
    public var summary: String

    public init(_ stderr: String) {
        let lines = stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        races = lines.filter { $0.hasPrefix("WARNING: ThreadSanitizer:") }.count
        guard let start = lines.firstIndex(where: { $0.hasPrefix("WARNING: ThreadSanitizer:") }) else {
            summary = ""
            return
        }
        // "WARNING: ThreadSanitizer: Swift access race (pid=...)": the kind of report.
        let kind =
            lines[start].dropFirst("WARNING: ThreadSanitizer: ".count).split(separator: "(").first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? "race"
        // Each access: "Modifying access of Swift variable at 0x... by thread T3:", then its frame #0.
        var accesses: [String] = []
        var index = start + 1
        while index + 1 < lines.count, !lines[index].hasPrefix("SUMMARY:"), accesses.count < 2 {
            let line = lines[index]
            if line.contains(" by thread ") || line.contains(" by main thread"), line.hasSuffix(":"),
                !line.hasPrefix("Location"), !line.hasPrefix("Thread"), lines[index + 1].hasPrefix("#0 ")
            {
                let what = line.split(separator: " ").prefix { $0 != "of" && $0 != "at" }.joined(separator: " ")
                let who = line.components(separatedBy: " by ").last?.dropLast() ?? ""
                accesses.append("\(what) by \(who) in \(Self.symbol(ofFrame: lines[index + 1]))")
            }
            index += 1
        }
        summary = Self.demangle(
            "\(kind): " + accesses.joined(separator: "; ")
                + (races > 1 ? " " + String(format: "(and %@)", counted(races - 1, "more report")) : ""))
    }

    /// "#0 $s10ExerciseR114RequestCounterC6recordyySSF Exercises/NN-name/RequestCounter.swift (exerciseR1+0x1012cb)"
    /// (or `<null>` where the file is) -> "$s10ExerciseR114RequestCounterC6recordyySSF".
    static func symbol(ofFrame frame: String) -> String {
        let words = frame.split(separator: " ").dropFirst()
        let symbol = words.prefix {
            !$0.hasPrefix("<") && !$0.hasPrefix("(") && !$0.hasSuffix(".o") && !$0.contains("/")
                && !$0.contains(".swift")
        }
        return symbol.joined(separator: " ")
    }

    /// Swift symbols in a report may be mangled (`$s10ExerciseR114RequestCounterC6recordyySSF`);
    /// `swift demangle` turns them back into `ExerciseR1.RequestCounter.record(Swift.String) -> ()`.
    public static func demangle(_ text: String) -> String {
        guard text.contains("$s"), let input = try? writeTemporary(text),
            let outcome = try? Subprocess.run(
                "/bin/sh", ["-c", "swift demangle --simplified < \"$0\"", input], timeout: 30),
            outcome.succeeded, !outcome.stdout.isEmpty
        else { return text }
        try? FileManager.default.removeItem(atPath: input)
        return outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func writeTemporary(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tsan-\(UUID().uuidString).txt").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
