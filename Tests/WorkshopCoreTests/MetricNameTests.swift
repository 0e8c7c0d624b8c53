import Foundation
import Testing

/// Metric names are typed (`MetricName`) and declared once: the shared ones in the core's
/// `MetricName.swift`, each lesson's own in its kit's `MetricNames.swift`. A name written as a
/// bare string elsewhere could be misspelt and read nothing; a name declared in two modules
/// would be two figures with one name in the JSON.
struct MetricNameTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The files that declare names: the core's, and one per lesson kit.
    static var declarations: [String] {
        let sources = root.appendingPathComponent("Sources").path
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []
        let kits = folders.filter { $0.hasPrefix("Lesson") && $0.hasSuffix("Kit") }.sorted()
        return ["Sources/WorkshopCore/Report/MetricName.swift"] + kits.map { "Sources/\($0)/MetricNames.swift" }
    }

    /// Every `public static let x = MetricName("x")` of the declaring files.
    static func declaredNames() throws -> [String] {
        var names: [String] = []
        for file in declarations {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            let pattern = try NSRegularExpression(pattern: #"static let (\w+) = MetricName\("(\w+)"\)"#)
            names += pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
                Range(match.range(at: 2), in: text).map { String(text[$0]) }
            }
        }
        return names
    }

    static func swiftFiles(under folder: String) -> [(path: String, text: String)] {
        let base = root.appendingPathComponent(folder)
        let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
        return (walker?.allObjects as? [URL] ?? []).filter { $0.pathExtension == "swift" }.compactMap { url in
            let path = String(url.path.dropFirst(root.path.count + 1))
            return (try? String(contentsOf: url, encoding: .utf8)).map { (path, $0) }
        }
    }

    @Test func everyNameIsDeclaredOnceInItsModulesFile() throws {
        let names = try Self.declaredNames()
        #expect(names.count > 80, "the files list every lesson's figures")
        let twice = Dictionary(grouping: names) { $0 }.filter { $0.value.count > 1 }.keys.sorted()
        #expect(twice.isEmpty, "declared twice: \(twice)")
        for (path, text) in Self.swiftFiles(under: "Sources") where !Self.declarations.contains(path) {
            #expect(!text.contains("static let") || !text.contains("= MetricName(\""), "\(path) declares a name")
        }
    }

    /// A camelCase name (totalSeconds) in quotes anywhere but the one file. (Plain words such
    /// as "rows" or "fault" are also query items and flags, so they are left out.)
    @Test func noNameIsWrittenAsABareStringElsewhere() throws {
        let names = try Self.declaredNames().filter { $0.contains(where: \.isUppercase) }
        var found: [String] = []
        for folder in ["Sources", "Tests"] {
            for (path, text) in Self.swiftFiles(under: folder) where !Self.declarations.contains(path) {
                // The file cut at every quote: a name in quotes leaves a piece that is exactly the
                // name. One pass over the bytes and a set (String.contains per name took 16 s).
                let pieces = Set(
                    text.utf8.split(separator: UInt8(ascii: "\""), omittingEmptySubsequences: false).dropFirst()
                        .dropLast().map { String(decoding: $0, as: UTF8.self) })
                for name in names where pieces.contains(name) { found.append("\(path): \"\(name)\"") }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
