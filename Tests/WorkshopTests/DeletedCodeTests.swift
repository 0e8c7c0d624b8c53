import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools
import XCTest

/// No exercise can be passed by deleting code: for every exercise, the stub with the body of
/// every function holding a TODO replaced by `fatalError()`, and the stub with those bodies
/// emptied (a default return), fail `workshop check`, which ends with its verdict line and
/// never crashes itself. (The stub as shipped fails too: `workshop verify` proves that in CI.)
///
/// The slow tier (`swift test --filter SlowTests`); the transformation itself is checked in
/// DeletedCodeTests.
final class DeletedCodeSlowTests: XCTestCase {
    /// Whether this test process was built with `-sanitize=thread` (`swift test --sanitize=thread`).
    static let underThreadSanitizer: Bool = {
        #if os(Linux)
            return dlsym(nil, "__tsan_init") != nil
        #else
            return dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__tsan_init") != nil  // RTLD_DEFAULT
        #endif
    }()

    /// Every exercise of the catalog but those whose `.meta/exercise.json` says why not
    /// (`deletedCode`): a new folder is covered with no edit here.
    func testNoExerciseIsPassedByDeletingCode() throws {
        for exercise in ExerciseCatalog.exercises where exercise.deletedCodeExemption == nil {
            try deletedCodeFails(exercise.id)
        }
    }

    func deletedCodeFails(_ id: String) throws {
        // 22 compiles and runs of the CLI, about 50 s on 2 cores: the slow tier.
        try XCTSkipUnless(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        // What is tested is the learner's file and the CLI's verdict, both in child processes;
        // this process has no threads of its own to sanitize, and under the sanitizer every
        // check would be compiled again, sanitized (minutes). The plain run covers it.
        try XCTSkipIf(
            Self.underThreadSanitizer,
            "under --sanitize=thread: the deleted-code checks run in the plain `swift test` only")
        let workspace = try TestWorkspace()
        defer { workspace.remove() }
        let exercise = ExerciseCatalog.named(id)
        let file = exercise.paths[0]
        let shipped = workspace.text(file)
        let variants = [
            ("TODO bodies replaced by fatalError()", DeletedCode.bodies(of: shipped, with: .fatalError)),
            ("TODO bodies emptied", DeletedCode.bodies(of: shipped, with: .defaultReturn)),
        ]
        XCTAssertNotEqual(variants[0].1, shipped, "\(id): no function holds a TODO")
        for (name, text) in variants {
            try workspace.write(file, Data(text.utf8))
            let check = try WorkshopBinary.run(["check", id], root: workspace.root)
            XCTAssertEqual(check.status, 1, "\(id) \(name) must fail:\n\(check.stdout)\n\(check.stderr)")
            XCTAssertFalse(check.signaled, "\(id) \(name): the CLI itself must not crash")
            let verdict = check.stdout.split(separator: "\n").last.map(String.init) ?? ""
            XCTAssertTrue(
                verdict.hasPrefix("exercise \(id): ") && verdict.contains(" checks fail"),
                "\(id) \(name): the last line is the verdict: \(verdict)\n\(check.stdout)")
        }
    }
}

/// The transformation DeletedCodeSlowTests applies to every exercise, on a made-up file.
final class DeletedCodeTests: XCTestCase {
    func testTheTransformationReplacesOnlyBodiesWithATodo() {
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
        XCTAssertTrue(replaced.contains("static func kept() -> Int { 1 }"), replaced)
        XCTAssertFalse(replaced.contains("TODO"), replaced)
        XCTAssertEqual(replaced.components(separatedBy: "fatalError(\"deleted\")").count, 3, replaced)
        XCTAssertTrue(replaced.hasSuffix("}"), replaced)
        let emptied = DeletedCode.bodies(of: source, with: .defaultReturn)
        XCTAssertTrue(emptied.contains("func done() {\n    }"), emptied)
        XCTAssertTrue(emptied.contains(") -> Int {\n        fatalError(\"deleted\")\n    }"), emptied)
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
