import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// No exercise can be passed by deleting code: for every exercise, the stub with the body of
/// every function holding a TODO replaced by `fatalError()`, and the stub with those bodies
/// emptied (a default return), fail `workshop check`, which ends with its verdict line and
/// never crashes itself. (The stub as shipped fails too: `workshop verify` proves that in CI.)
///
/// The slow tier (`swift test --filter SlowTests`); the transformation itself is checked in
/// DeletedCodeTests.
@Suite struct DeletedCodeSlowTests {
    /// Every exercise of the catalog but those whose `.meta/exercise.json` says why not
    /// (`deletedCode`): a new folder is covered with no edit here.
    @Test func noExerciseIsPassedByDeletingCode() async throws {
        for exercise in ExerciseCatalog.exercises where exercise.deletedCodeExemption == nil {
            try await deletedCodeFails(exercise.id)
        }
    }

    func deletedCodeFails(_ id: String) async throws {
        // 22 compiles and runs of the CLI, about 50 s on 2 cores: the slow tier. (What is tested
        // is the learner's file and the CLI's verdict, both in child processes: nothing of this
        // process for the thread sanitizer to see, which CI runs over the learner's suite.)
        let workspace = try TestWorkspace()
        let exercise = ExerciseCatalog.named(id)
        let file = exercise.paths[0]
        let shipped = workspace.text(file)
        let variants = [
            ("TODO bodies replaced by fatalError()", DeletedCode.bodies(of: shipped, with: .fatalError)),
            ("TODO bodies emptied", DeletedCode.bodies(of: shipped, with: .defaultReturn)),
        ]
        #expect(variants[0].1 != shipped, "\(id): no function holds a TODO")
        for (name, text) in variants {
            try workspace.write(file, Data(text.utf8))
            let check = try await WorkshopBinary.run(["check", id], root: workspace.root)
            #expect(check.status == 1, "\(id) \(name) must fail:\n\(check.stdout)\n\(check.stderr)")
            #expect(!check.signaled, "\(id) \(name): the CLI itself must not crash")
            let verdict = check.stdout.split(separator: "\n").last.map(String.init) ?? ""
            #expect(
                verdict.hasPrefix("exercise \(id): ") && verdict.contains(" checks fail"),
                "\(id) \(name): the last line is the verdict: \(verdict)\n\(check.stdout)")
        }
    }
}

/// The transformation DeletedCodeSlowTests applies to every exercise, on a made-up file.
@Suite struct DeletedCodeTests {
    @Test func theTransformationReplacesOnlyBodiesWithATodo() async throws {
        let source = """
            enum A {
                static func kept() -> Int { 1 }
                static func changed(
                    x: Int
                ) -> Int {
                    // TODO(1): do it
                    let y = [1].map { $0 + x }  // a closure's braces
                    return y[0]
                }
                func done() {
                    // TODO(2): and this
                    print("{ not a brace }")
                }
            }
            """
        let replaced = DeletedCode.bodies(of: source, with: .fatalError)
        #expect(replaced.contains("static func kept() -> Int { 1 }"), "\(replaced)")
        #expect(!replaced.contains("TODO"), "\(replaced)")
        #expect(replaced.components(separatedBy: "fatalError(\"deleted\")").count == 3, "\(replaced)")
        #expect(replaced.hasSuffix("}"), "\(replaced)")
        let emptied = DeletedCode.bodies(of: source, with: .defaultReturn)
        #expect(emptied.contains("func done() {\n    }"), "\(emptied)")
        #expect(emptied.contains(") -> Int {\n        fatalError(\"deleted\")\n    }"), "\(emptied)")
    }
}

/// What a learner who "deletes the code" leaves: every function (or init) whose body holds a
/// `TODO` gets a new body. A simple, robust transformation: a declaration line with `func ` or
/// `init(`, its first `{`, and the matching `}` (braces inside string literals and comments
/// are not counted).
enum DeletedCode {
    enum Replacement {
        /// `fatalError("deleted")`: compiles in any function.
        case fatalError
        /// An empty body for a function that returns nothing (and an init: the compiler then
        /// says what is missing), `fatalError` for one that returns a value.
        case defaultReturn
        /// A loop that never ends (a learner's accident), then `fatalError` for the compiler.
        case endlessLoop
    }

    static func bodies(of source: String, with replacement: Replacement) -> String {
        let characters = Array(source)
        var output = ""
        var index = 0
        while index < characters.count {
            guard let declaration = nextDeclaration(characters, from: index),
                let open = firstCode("{", characters, from: declaration),
                let close = matchingBrace(characters, open: open)
            else {
                output += String(characters[index...])
                break
            }
            let body = String(characters[(open + 1)..<close])
            output += String(characters[index...open])
            if body.contains("TODO") {
                let signature = String(characters[declaration..<open])
                // The indentation of the line the declaration starts on.
                let lineStart = characters[..<declaration].lastIndex(of: "\n").map { $0 + 1 } ?? 0
                let indent = String(characters[lineStart...].prefix { $0 == " " })
                let returnsValue = signature.contains("->")
                if replacement == .endlessLoop {
                    output += "\n" + indent + "    while true {}\n" + indent + "    fatalError(\"never\")\n" + indent
                } else if replacement == .defaultReturn && !returnsValue {
                    output += "\n" + indent
                } else {
                    output += "\n" + indent + "    fatalError(\"deleted\")\n" + indent
                }
            } else {
                output += body
            }
            output += "}"
            index = close + 1
        }
        return output
    }

    /// The start of the next `func ` or `init(` that is code (not in a comment).
    static func nextDeclaration(_ characters: [Character], from start: Int) -> Int? {
        var index = start
        while index < characters.count {
            if let skipped = skipNonCode(characters, at: index) {
                index = skipped
                continue
            }
            for keyword in ["func ", "init("] where matches(characters, keyword, at: index) {
                let before = index == 0 ? " " : characters[index - 1]
                if before == " " || before == "\n" { return index }
            }
            index += 1
        }
        return nil
    }

    static func firstCode(_ wanted: Character, _ characters: [Character], from start: Int) -> Int? {
        var index = start
        while index < characters.count {
            if let skipped = skipNonCode(characters, at: index) {
                index = skipped
                continue
            }
            if characters[index] == wanted { return index }
            index += 1
        }
        return nil
    }

    static func matchingBrace(_ characters: [Character], open: Int) -> Int? {
        var depth = 0
        var index = open
        while index < characters.count {
            if let skipped = skipNonCode(characters, at: index) {
                index = skipped
                continue
            }
            if characters[index] == "{" { depth += 1 }
            if characters[index] == "}" {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }

    /// When a comment or a string literal starts at `index`: the index just after it.
    static func skipNonCode(_ characters: [Character], at index: Int) -> Int? {
        if matches(characters, "//", at: index) {
            var end = index
            while end < characters.count && characters[end] != "\n" { end += 1 }
            return end
        }
        if characters[index] == "\"" {
            var end = index + 1
            while end < characters.count && characters[end] != "\"" && characters[end] != "\n" {
                end += characters[end] == "\\" ? 2 : 1
            }
            return min(end + 1, characters.count)
        }
        return nil
    }

    static func matches(_ characters: [Character], _ text: String, at index: Int) -> Bool {
        let wanted = Array(text)
        return index + wanted.count <= characters.count && Array(characters[index..<(index + wanted.count)]) == wanted
    }
}
