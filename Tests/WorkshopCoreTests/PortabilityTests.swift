import Foundation
import Testing

/// The workshop is built and tested on Linux; learners bring Macs. A name that only Glibc (or
/// only Darwin) has, used without the `#if` that says so, builds here and breaks there. This
/// reads every Swift file of the package and of the exercises and fails on such a name outside
/// its guard (`#if canImport(Glibc)` / `#if os(Linux)`, or `canImport(Darwin)` / `os(macOS)`,
/// or the `#else` of the other one).
struct PortabilityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Spellings that exist in one C library's Swift import only.
    static let glibcOnly = [
        "SOCK_STREAM.rawValue", "SOCK_DGRAM.rawValue", "MSG_NOSIGNAL", "epoll_", "Glibc.",
    ]
    static let darwinOnly = ["SO_NOSIGPIPE", "Darwin.", "kqueue(", "mach_absolute_time"]

    enum Platform { case glibc, darwin }

    /// Which platform the lines under `condition` are for; `inverted` for its `#else`.
    static func platform(_ condition: String, inverted: Bool) -> Platform? {
        let glibc = condition.contains("canImport(Glibc)") || condition.contains("os(Linux)")
        let darwin = condition.contains("canImport(Darwin)") || condition.contains("os(macOS)")
        switch (glibc, darwin, inverted) {
        case (true, false, false), (false, true, true): return .glibc
        case (false, true, false), (true, false, true): return .darwin
        default: return nil
        }
    }

    /// Every unguarded one-platform name in `text`, as "path:line: name".
    static func findings(in text: String, path: String) -> [String] {
        var stack: [(condition: String, inverted: Bool)] = []
        var found: [String] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#if ") {
                stack.append((String(line.dropFirst(4)), false))
                continue
            }
            if line.hasPrefix("#elseif "), !stack.isEmpty {
                stack[stack.count - 1] = (String(line.dropFirst(8)), false)
                continue
            }
            if line.hasPrefix("#else"), !stack.isEmpty {
                stack[stack.count - 1].inverted = true
                continue
            }
            if line.hasPrefix("#endif") {
                _ = stack.popLast()
                continue
            }
            // Code only: a comment may name anything.
            let code = line.hasPrefix("//") ? "" : line.components(separatedBy: " //").first ?? line
            let platforms = Set(stack.compactMap { platform($0.condition, inverted: $0.inverted) })
            for name in glibcOnly where code.contains(name) && !platforms.contains(.glibc) {
                found.append("\(path):\(index + 1): \(name) is Glibc's only: put it under #if canImport(Glibc)")
            }
            for name in darwinOnly where code.contains(name) && !platforms.contains(.darwin) {
                found.append("\(path):\(index + 1): \(name) is Darwin's only: put it under #if canImport(Darwin)")
            }
        }
        return found
    }

    @Test func noOnePlatformNameIsUsedWithoutItsGuard() throws {
        var found: [String] = []
        var read = 0
        for folder in ["Sources", "Tests", "Exercises"] {
            let base = Self.root.appendingPathComponent(folder)
            let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
            for case let url as URL in walker?.allObjects ?? [] where url.pathExtension == "swift" {
                guard url.lastPathComponent != "PortabilityTests.swift" else { continue }
                let path = String(url.path.dropFirst(Self.root.path.count + 1))
                found += Self.findings(in: try String(contentsOf: url, encoding: .utf8), path: path)
                read += 1
            }
        }
        #expect(read > 200, "the scan read the package's files")
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    /// The check itself: the spelling the outside review found, planted unguarded, is reported;
    /// under its guard, or in the other branch's `#else`, it is not.
    @Test func aPlantedGlibcSpellingIsFoundAndAGuardedOneIsNot() {
        let planted = "let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)\n"
        #expect(Self.findings(in: planted, path: "a.swift").count == 1)
        #expect(Self.findings(in: "#if canImport(Glibc)\n" + planted + "#endif\n", path: "a.swift").isEmpty)
        #expect(
            Self.findings(in: "#if canImport(Darwin)\nlet x = 1\n#else\n" + planted + "#endif\n", path: "a.swift")
                .isEmpty)
        #expect(
            Self.findings(in: "#if canImport(Glibc)\nlet x = 1\n#else\n" + planted + "#endif\n", path: "a.swift").count
                == 1)
        #expect(Self.findings(in: "// " + planted, path: "a.swift").isEmpty, "a comment may name it")
    }
}
