import Foundation

/// One error as swiftc prints it with `-diagnostic-style=llvm`: where, what, the source line
/// with the caret under the spot, and the notes that follow it.
///
///     Exercises/NN-name/File.swift:18:51: error: expected '{' to start the body of for-each loop
///             for (index, entry) in entries.enumerated()
///                                                       ^
struct CompilerError: Equatable {
    /// The path as the compiler printed it (relative to the folder it ran in).
    var path: String
    var line: Int
    var column: Int
    /// What follows "error: ".
    var message: String
    /// The source line and the caret line under it (and a fix-it line), when printed.
    var excerpt: [String] = []
    /// The notes printed after it ("path:line:col: note: ..."), their first lines only.
    var notes: [String] = []

    /// "path:line:col: error: message", then the excerpt; with `notes`, the notes after it.
    /// `place` rewrites a path (a driver's folder in the compile to the exercise's `.meta`).
    func lines(notes showNotes: Bool = false, place: (String) -> String = { $0 }) -> [String] {
        var shown = ["\(place(path)):\(line):\(column): error: \(message)"] + excerpt
        if showNotes {
            shown += notes.map { note in
                guard let colon = note.firstIndex(of: ":") else { return note }
                return place(String(note[..<colon])) + note[colon...]
            }
        }
        return shown
    }

    /// The errors in swiftc's output, in the order it printed them, each once (a file's error
    /// printed by two of the compiler's jobs is one error). Lines that are not an error at a
    /// place in a file (the driver's "error: emit-module command failed", warnings, notes of
    /// their own) are left out.
    static func all(in output: String) -> [CompilerError] {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [CompilerError] = []
        var index = 0
        while index < lines.count {
            guard let (path, line, column, kind, message) = located(lines[index]), kind == "error" else {
                index += 1
                continue
            }
            var error = CompilerError(path: path, line: line, column: column, message: message)
            index += 1
            // The excerpt: every line up to the next located one (the source line, the caret,
            // a fix-it), then the notes, each with its own excerpt, which is left out.
            while index < lines.count, located(lines[index]) == nil, !lines[index].isEmpty {
                // (A fix-it that inserts nothing prints a line of spaces.)
                let blank = lines[index].allSatisfy(\.isWhitespace)
                if error.excerpt.count < 3 && !blank { error.excerpt.append(lines[index]) }
                index += 1
            }
            while index < lines.count {
                if lines[index].isEmpty {
                    index += 1
                } else if let (notePath, noteLine, noteColumn, kind, text) = located(lines[index]), kind == "note" {
                    error.notes.append("\(notePath):\(noteLine):\(noteColumn): note: \(text)")
                    index += 1
                    while index < lines.count, !lines[index].isEmpty, located(lines[index]) == nil { index += 1 }
                } else {
                    break
                }
            }
            if !found.contains(error) { found.append(error) }
        }
        return found
    }

    /// "path:12:5: error: text" -> (path, 12, 5, "error", "text"); nil for any other line.
    static func located(_ line: String) -> (String, Int, Int, String, String)? {
        guard !line.hasPrefix(" "), !line.hasPrefix("\t") else { return nil }
        for kind in ["error", "note", "warning", "remark"] {
            guard let marker = line.range(of: ": \(kind): ") else { continue }
            let place = line[..<marker.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
            guard place.count >= 3, let column = Int(place[place.count - 1]), let number = Int(place[place.count - 2])
            else { return nil }
            let path = place.dropLast(2).joined(separator: ":")
            guard !path.isEmpty else { return nil }
            return (path, number, column, kind, String(line[marker.upperBound...]))
        }
        return nil
    }
}

/// What a crashed check program's backtrace shows about why it stopped.
struct CrashEvidence {
    /// A queue's assertion failed (`dispatchPrecondition(condition: .onQueue(...))`, which
    /// `MainActor.assumeIsolated` and Swift's checks of an actor's isolation also end in on
    /// Linux): libdispatch's frame, or its message where it prints one ("Block was expected to
    /// execute on queue", on Apple's platforms; Linux's libdispatch prints none).
    var queueAssertion: Bool
    /// That assertion was the Screen's (its frames, in WorkshopCore's Screen/, are on the
    /// crashed thread): the Screen or its table touched off the main queue.
    var screenOffMain: Bool

    init(_ stderr: String) {
        let crashed = Self.crashedThread(stderr)
        queueAssertion =
            crashed.contains("_dispatch_assert_queue_fail")
            || stderr.contains("Block was expected to execute on queue")
        screenOffMain = queueAssertion && crashed.contains("/WorkshopCore/Screen/")
    }

    /// The crashed thread's part of Swift's backtrace ("Thread 4 crashed:" up to the next
    /// thread); all of `stderr` when it has no such part.
    static func crashedThread(_ stderr: String) -> Substring {
        guard let start = stderr.range(of: #"(?m)^Thread \d+.* crashed:$"#, options: .regularExpression) else {
            return stderr[...]
        }
        let rest = stderr[start.upperBound...]
        let end = rest.range(of: #"(?m)^Thread \d+"#, options: .regularExpression)?.lowerBound ?? rest.endIndex
        return stderr[start.lowerBound..<end]
    }
}
