import ExerciseChecks
import Foundation
import WorkshopCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ExerciseRunner {
    /// The name of the failed check of a program that did not finish in time.
    public static let finishCheck = "your code finishes"
    /// The name of the failed check of a program that crashed.
    public static let crashCheck = "your code runs without a crash"

    /// The driver crashed, trapped, ran out of memory or hung before it printed its results.
    func stoppedResult(
        _ outcome: Subprocess.Outcome, exercise: Exercise, sources: [String: Data], hints: [String]
    ) -> CheckResult {
        let lines = outcome.stderr.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let site = Self.crashSite(lines, in: exercise)
        if outcome.timedOut {
            let seconds = Self.seconds(runTimeout)
            // The backtrace names the function and file; the line when the loop has one
            // (`while true {}` has none), else the file's first TODO is where to look.
            let lined = site.map { $0.range(of: #"\.swift:\d+"#, options: .regularExpression) != nil } ?? false
            var place = site.map { text(format: "It was in %@.", $0) } ?? ""
            if !lined {
                let todo = firstTodo(exercise, sources)
                place += site == nil ? text(format: "Look at %@.", todo) : text(format: " Look at %@.", todo)
            }
            return CheckResult(
                name: Self.finishCheck, ja: Self.japanese(Self.finishCheck), passed: false,
                expected: text(
                    format: "the checks end within %1$@ s (more time: --timeout or %2$@)", seconds,
                    Self.timeoutVariable),
                got: text(
                    format: "your code did not finish in %@ s: an endless loop, or a wait nothing ends? ", seconds)
                    + place,
                hint: 0)
        }
        if let failure = lines.first(where: Self.isOutOfMemory), let limit = memoryLimitBytes,
            !toolchain.threadSanitizer
        {
            let size = Self.gigabytes(limit)
            let message = failure.replacingOccurrences(of: "Fatal error: ", with: "")
            return CheckResult(
                name: Self.crashCheck, ja: Self.japanese(Self.crashCheck), passed: false,
                expected: text(
                    format: "the checks run within %1$@ of memory (more: %2$@)", size, Self.memoryVariable),
                got: text(
                    format:
                        "your code asked for more memory than a check may take (%1$@): %2$@. An allocation far too large, or a collection that grows without end?",
                    size, message)
                    + (site.map { text(format: " It was at %@.", $0) } ?? ""),
                hint: 0)
        }
        return crashResult(outcome, lines: lines, site: site, exercise: exercise, hints: hints)
    }

    /// "20", "2.5": seconds for "%@ s".
    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : String(format: "%.1f", value)
    }

    static func gigabytes(_ bytes: Int) -> String {
        bytes % (1 << 30) == 0 ? "\(bytes >> 30) GB" : "\(bytes >> 20) MB"
    }

    /// The Swift runtime's words when an allocation fails ("Fatal error: failed to allocate
    /// 10000000032 bytes of memory with alignment 8"), and C's and C++'s.
    static func isOutOfMemory(_ line: String) -> Bool {
        line.contains("failed to allocate") || line.contains("Could not allocate memory")
            || line.contains("std::bad_alloc") || line.contains("out of memory")
    }

    /// "Exercises/NN-name/File.swift (its first TODO is on line 12)".
    func firstTodo(_ exercise: Exercise, _ sources: [String: Data]) -> String {
        let file = exercise.files[0]
        let source = String(decoding: sources[file] ?? Data(), as: UTF8.self)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let path = exercise.directory + "/" + file
        guard let index = lines.firstIndex(where: { $0.contains("TODO") }) else { return path }
        return text(format: "%1$@ (its first TODO is on line %2$d)", path, index + 1)
    }

    /// The driver crashed or trapped before it printed its results: how it ended, the runtime's
    /// message, and the one place in the learner's files where it was (the backtrace's first
    /// frame there). A hint only when the evidence is that hint's case (`hint(for:_:_:)`).
    /// `lines`: its standard error's, trimmed; `site`: where in the learner's files (`crashSite`).
    func crashResult(
        _ outcome: Subprocess.Outcome, lines: [String], site: String?, exercise: Exercise, hints: [String]
    ) -> CheckResult {
        // Swift's crash reporter names the signal first ("*** Signal 4: Backtracing...").
        var ended = outcome
        if let reported = lines.first(where: { $0.hasPrefix("*** Signal ") }),
            let number = Int32(reported.dropFirst("*** Signal ".count).prefix { $0.isNumber })
        {
            ended.signaled = true
            ended.status = number
        }
        let trapped = ended.signaled && (ended.status == SIGILL || ended.status == SIGTRAP)
        let evidence = CrashEvidence(outcome.stderr)
        // How it ended and the runtime's own message, word for word (in 「」 in Japanese).
        var got = text(format: "%@", ended.describeEnd(timeout: runTimeout))
        if let fatal = lines.first(where: { $0.contains("Fatal error") || $0.contains("Precondition failed") })
            ?? lines.first(where: { $0.hasPrefix("*** Program crashed") })
        {
            let message = Self.runtimeMessage(
                fatal.trimmingCharacters(in: CharacterSet(charactersIn: "* ")), exercise, placed: site != nil)
            got += ": " + text(format: "%@", message)
        }
        if let site { got += text(format: ", in %@", site) }
        var expected = text("the checks run to the end")
        if evidence.screenOffMain {
            expected = text("the Screen and its table touched only on the main queue (this trap is its check)")
        } else if evidence.queueAssertion {
            expected = text(
                "code that checks its queue (dispatchPrecondition, MainActor.assumeIsolated) runs only on that queue")
        } else if trapped {
            expected = text(
                "no trap (a failed precondition, a fatalError, a nil unwrapped with !, an index out of range)")
        }
        return CheckResult(
            name: Self.crashCheck, ja: Self.japanese(Self.crashCheck), passed: false, expected: expected, got: got,
            hint: Self.hint(for: evidence, outcome.stderr, hints))
    }

    /// The hint a crash points to, 1-based; 0 when no hint is about what the crash shows.
    /// A hint is about it when it quotes what the program printed (a runtime's message in
    /// "..." of 16 characters or more), or, for the Screen touched off the main queue (its
    /// trap in the backtrace), when it says where the Screen may be touched (`DispatchQueue.main`).
    static func hint(for evidence: CrashEvidence, _ stderr: String, _ hints: [String]) -> Int {
        for (index, hint) in hints.enumerated() where quoted(in: hint).contains(where: stderr.contains) {
            return index + 1
        }
        if evidence.screenOffMain,
            let index = hints.firstIndex(where: { $0.contains("Screen") && $0.contains("DispatchQueue.main") })
        {
            return index + 1
        }
        return 0
    }

    /// What `text` quotes in "...", 16 characters or more (a message, not a word).
    static func quoted(in text: String) -> [String] {
        let parts = text.split(separator: "\"", omittingEmptySubsequences: false)
        return stride(from: 1, to: parts.count - 1, by: 2).map { String(parts[$0]) }.filter { $0.count >= 16 }
    }

    /// The runtime's message without the place it names by `#fileID`, which is not a path the
    /// learner knows ("Exercise03/File.swift:21: Fatal error", Swift's own
    /// "Swift/Array.swift:690: Fatal error: Index out of range"): when the backtrace found the
    /// place in the learner's files (`placed`), that place is the one said; else a place in
    /// their file is said by its path.
    static func runtimeMessage(_ line: String, _ exercise: Exercise, placed: Bool) -> String {
        let pattern = #"^[A-Za-z_][A-Za-z0-9_]*/[^:/]+\.swift:\d+: "#
        guard let prefix = line.range(of: pattern, options: .regularExpression) else { return line }
        if placed { return String(line[prefix.upperBound...]) }
        let fileID = line[prefix].dropLast(2)  // "Exercise03/File.swift:21"
        for file in exercise.files where fileID.hasPrefix(exercise.moduleName + "/" + file + ":") {
            let number = fileID.dropFirst(exercise.moduleName.count + file.count + 2)
            return "\(exercise.directory)/\(file):\(number): " + line[prefix.upperBound...]
        }
        return line
    }

    /// The first frame of a crash's backtrace in the learner's files:
    /// "loadIcons(for:into:) at Exercises/NN-name/File.swift:21:13".
    static func crashSite(_ lines: [String], in exercise: Exercise) -> String? {
        for line in lines {
            // "3 [ra] 0x000055a02fbf7fb1 closure #1 in f(_:) + 32 in exercise03 at Exercises/x/A.swift:2:13"
            guard let at = line.range(of: " at Exercises/", options: .backwards),
                exercise.paths.contains(where: {
                    line[at.upperBound...].hasPrefix($0.dropFirst("Exercises/".count) + ":")
                }),
                let address = line.range(of: " 0x")
            else { continue }
            let head = line[address.upperBound..<at.lowerBound].drop { $0 != " " }.dropFirst()
            let function = head.components(separatedBy: " + ").first ?? String(head)
            return "\(function) at \(line[line.index(after: at.lowerBound)...].dropFirst(3))"
        }
        return nil
    }
}
