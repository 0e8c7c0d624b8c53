import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// The figures the texts quote from runs (see `Figures`): every anchored figure and claim of the
/// texts agrees with the captured block it names, and every capture's picture is of the run its
/// blocks quote. Quick: nothing is run here; the blocks themselves are checked against runs by
/// `CaptureSlowTests`, and `swift run workshop captures --update` writes blocks, figures and
/// pictures from one run.
struct FigureTests {
    static let root = ExerciseRoot.builtFrom

    /// The lessons whose texts and tutorials anchor their figures and whose Japanese tutorials
    /// show Japanese runs: all seven.
    static let anchoredLessons = 1...7

    static let texts: [(path: String, text: String)] = Captures.textPaths(root: root).compactMap { path in
        (try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)).map { (path, $0) }
    }

    static func problems(_ texts: [(path: String, text: String)]) -> [Figures.Problem] {
        Figures.readings(texts: texts, library: Figures.Library(texts: texts)).problems
    }

    @Test func everyAnchoredFigureAndClaimAgreesWithItsCapture() {
        let (readings, problems) = Figures.readings(texts: Self.texts, library: Figures.Library(texts: Self.texts))
        for problem in problems {
            Issue.record("\(problem) (`swift run workshop captures --update --figures` writes a figure)")
        }
        // Every lesson (en, ja) and its tutorials anchor their figures.
        for prefix in ["Lessons/0", "Lessons/ja/0", "Lessons/docc/en/lesson0", "Lessons/docc/ja/lesson0"] {
            for lesson in Self.anchoredLessons {
                let anchored = readings.filter { $0.anchor.path.hasPrefix("\(prefix)\(lesson)") }
                #expect(anchored.count >= 3, "\(prefix)\(lesson)*: \(anchored.count) anchors")
            }
        }
        #expect(readings.contains { $0.anchor.kind == .claim })
    }

    @Test func everyCapturesPictureIsOfTheRunItsBlocksQuote() {
        let library = Figures.Library(texts: Self.texts)
        for problem in Figures.pictureProblems(library: library, root: Self.root) {
            Issue.record("\(problem)")
        }
        // The Japanese tutorials, the overview among them, show pictures of Japanese runs.
        for (path, text) in Self.texts
        where path == "Lessons/docc/ja/Sakusaku.tutorial"
            || Self.anchoredLessons.contains(where: { path == "Lessons/docc/ja/lesson0\($0).tutorial" })
        {
            for picture in TutorialCatalog.references(in: text) where picture.hasSuffix(".svg") {
                #expect(picture.hasSuffix("-ja.svg"), "\(path) shows \(picture), the picture of an English run")
            }
        }
    }

    // MARK: - The done-when of issue 39, on the texts as they are

    /// Changing one figure in a captured block fails every line that quotes it: the prose, the
    /// quizzes and the steps, in any text.
    @Test func aChangedFigureInABlockFailsEveryLineThatQuotesIt() throws {
        let library = Figures.Library(texts: Self.texts)
        let readings = Figures.readings(texts: Self.texts, library: library).readings
        // The captured number quoted by the most figures, in more than one text (a lesson text and
        // its tutorial).
        var quoting: [String: [Figures.Reading]] = [:]
        for reading in readings where reading.anchor.kind == .figure {
            for key in Set(reading.sourceKeys) { quoting[key, default: []].append(reading) }
        }
        let (key, quotes) = try #require(
            quoting.filter { Set($0.value.map(\.anchor.path)).count > 1 }
                .max { ($0.value.count, $1.key) < ($1.value.count, $0.key) })
        #expect(quotes.contains { $0.anchor.path.hasSuffix(".tutorial") }, "\(key) is quoted by no tutorial")
        // "Lessons/03-gcd-queues.md:240 #2": change that number in the block.
        let place = key.split(separator: " ")
        let file = String(place[0].split(separator: ":")[0])
        let line = try #require(Int(place[0].split(separator: ":")[1]))
        let index = try #require(Int(place[1].dropFirst()))
        let changed: [(path: String, text: String)] = try Self.texts.map { path, text in
            guard path == file else { return (path, text) }
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines[line - 1] = try #require(Self.replacingNumber(index, on: lines[line - 1]))
            return (path, lines.joined(separator: "\n"))
        }
        let named = Set(Self.problems(changed).map { "\($0.path):\($0.line)" })
        let quoted = Set(quotes.map(\.anchor.location))
        #expect(quoted.isSubset(of: named), "not named: \(quoted.subtracting(named).sorted())")
        // Nothing else: a claim that reads the number may fail too, no figure that does not.
        let others = named.subtracting(quoted).filter { location in
            !readings.contains { $0.anchor.location == location && $0.anchor.kind == .claim }
        }
        #expect(others.isEmpty, "named, though they do not quote it: \(others.sorted())")
    }

    /// Changing one figure in a quiz's choice or justification fails that line, and only it.
    @Test func aChangedFigureInAQuizFailsItsLine() throws {
        let quiz = try #require(
            Self.texts.first { path, text in
                path.hasPrefix("Lessons/docc/")
                    && Self.figureLines(text, path: path).contains { line in
                        Self.isInChoice(text, line: line)
                    }
            })
        let line = try #require(
            Self.figureLines(quiz.text, path: quiz.path).first { Self.isInChoice(quiz.text, line: $0) })
        try Self.changeTheFigure(on: line, of: quiz.path)
    }

    /// Changing one figure in a lesson text's sentence fails that line, and only it.
    @Test func aChangedFigureInProseFailsItsLine() throws {
        let path = "Lessons/03-gcd-queues.md"
        let text = try #require(Self.texts.first { $0.path == path }?.text)
        let line = try #require(Self.figureLines(text, path: path).first)
        try Self.changeTheFigure(on: line, of: path)
    }

    static func changeTheFigure(on line: Int, of path: String) throws {
        #expect(problems(texts).isEmpty)
        let anchor = try #require(
            Figures.anchors(in: texts.first { $0.path == path }?.text ?? "", path: path).anchors.first {
                $0.line == line && $0.kind == .figure
            })
        let quoted = try #require(anchor.quoted)
        let changed: [(path: String, text: String)] = texts.map { file, text in
            guard file == path else { return (file, text) }
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0)) }
            lines[line - 1].replaceSubrange(quoted.start..<quoted.end, with: Array(wrong(quoted)))
            return (file, lines.map { String($0) }.joined(separator: "\n"))
        }
        let named = problems(changed)
        #expect(named.map(\.line) == [line] && named.allSatisfy { $0.path == path }, "\(named)")
        #expect(named.first?.description.contains(wrong(quoted)) == true, "\(named)")
        // The update writes it back.
        let file = changed.first { $0.path == path }?.text ?? ""
        let written = Figures.updated(file, path: path, library: Figures.Library(texts: changed))
        #expect(written.written == 1)
        #expect(written.text == texts.first { $0.path == path }?.text)
    }

    /// A figure that cannot round to the quoted one: "7.19" for "3.08".
    static func wrong(_ quoted: Figures.Quoted) -> String {
        Figures.format(quoted.value * 2 + 1, like: quoted)
    }

    static func figureLines(_ text: String, path: String) -> [Int] {
        Figures.anchors(in: text, path: path).anchors.filter { $0.kind == .figure }.map(\.line)
    }

    /// Whether `line` (1-based) of a tutorial is inside a `@Choice`.
    static func isInChoice(_ text: String, line: Int) -> Bool {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for index in stride(from: line - 1, through: 0, by: -1) {
            let trimmed = lines[index].trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("@Choice") { return true }
            if trimmed.hasPrefix("@MultipleChoice") || trimmed.hasPrefix("@Step") { return false }
        }
        return false
    }

    /// `line` with its `index`-th number (as `Figures.numbers` counts) made 999.
    static func replacingNumber(_ index: Int, on line: String) -> String? {
        guard let expression = try? NSRegularExpression(pattern: #"(?<![A-Za-z0-9_.])[0-9]+(?:\.[0-9]+)*"#)
        else { return nil }
        let matches = expression.matches(in: line, range: NSRange(line.startIndex..., in: line))
        guard index <= matches.count, let range = Range(matches[index - 1].range, in: line) else { return nil }
        return line.replacingCharacters(in: range, with: "999")
    }

    // MARK: - Anchors

    static let sample = """
        <!-- capture: swift run lesson03 (en) -->
        ```
        no-thread: fetch the timeline
            1.788 s  reload: 20 rows
        total                   4.344 s     4.206 s     4.031 s
        dropped                      267           4           3
        hangs                                3           0           0
        ```

        <!-- capture: swift run lesson03 --variant threaded --image-width 4 (en) -->
        ```
        total                   1.130 s
        ```

        """

    static func read(_ prose: String, sample: String = sample) -> [Figures.Reading] {
        let text = sample + prose
        let library = Figures.Library(texts: [("Lessons/03-x.md", text)])
        return Figures.anchors(in: text, path: "Lessons/03-x.md").anchors.map { Figures.read($0, in: library) }
    }

    @Test func aFigureIsTheValueToItsOwnDecimals() {
        for good in [
            "total **4.21 s**<!-- figure: lesson03 · \"total\" #2 -->.",
            "total 4.2 s<!-- figure: lesson03 · \"total\" #2 -->",
            "total 4 s<!-- figure: lesson03 · \"total\" #2 -->",
            "267 frames<!-- figure: lesson03 · \"dropped\" #1 -->",
            "about 4.5 s<!-- figure: lesson03 · \"total\" #2 ~10% -->",
            "1.13 s<!-- figure: lesson03 variant threaded image-width 4 · \"total\" #1 -->",
            "0.14 s<!-- figure: lesson03 · \"total\" #1 - \"total\" #2 -->",
            "0.31 s<!-- figure: lesson03 · max(\"total\" #1, \"total\" #2) - min(\"total\" #3, 5) -->",
            "4,344 ms<!-- figure: lesson03 · \"total\" #1 * 1000 -->",
            "1.8 s<!-- figure: lesson03 · \"reload: 20 rows\" #1 -->",
            "3.7x<!-- figure: lesson03 · \"total\" #2 / [lesson03 variant threaded image-width 4] \"total\" #1 -->",
        ] {
            let readings = Self.read(good)
            #expect(readings.count == 1 && readings.allSatisfy { $0.problem == nil }, "\(good): \(readings)")
        }
        for bad in [
            "total 4.20 s<!-- figure: lesson03 · \"total\" #2 -->",
            "about 5 s<!-- figure: lesson03 · \"total\" #2 ~10% -->",
            "250 frames<!-- figure: lesson03 · \"dropped\" #1 -->",
        ] {
            let readings = Self.read(bad)
            #expect(readings.count == 1 && readings.allSatisfy { $0.problem != nil }, "\(bad): \(readings)")
        }
    }

    @Test func aMismatchNamesTheLineTheFigureAndTheCapture() throws {
        let reading = try #require(Self.read("x\nworst 0.97 s<!-- figure: lesson03 · \"total\" #2 -->").first)
        let problem = try #require(reading.problem)
        #expect(problem.path == "Lessons/03-x.md")
        #expect(problem.line == 15)
        #expect(problem.description.contains("0.97"), "\(problem)")
        #expect(problem.description.contains("4.21"), "\(problem)")
        #expect(problem.description.contains("Lessons/03-x.md:5 \"total\" #2 = 4.206"), "\(problem)")
    }

    @Test func aClaimIsChecked() {
        for (claim, holds) in [
            ("no hang<!-- claim: lesson03 · \"hangs\" #2 == 0 and \"hangs\" #3 == 0 -->", true),
            ("three hangs<!-- claim: lesson03 · \"hangs\" #1 >= 3 -->", true),
            (
                "about the same<!-- claim: lesson03 · abs(\"total\" #1 - \"total\" #2) <= 0.1 * \"total\" #2 -->",
                true
            ),
            ("faster<!-- claim: lesson03 · \"total\" #1 < \"total\" #3 -->", false),
            ("no frame dropped<!-- claim: lesson03 · \"dropped\" #3 == 0 -->", false),
            (
                "wider is faster<!-- claim: lesson03 variant threaded image-width 4 · \"total\" #1 < [lesson03] \"total\" #2 -->",
                true
            ),
        ] {
            let readings = Self.read(claim)
            #expect(readings.count == 1, "\(claim)")
            #expect((readings.first?.problem == nil) == holds, "\(claim): \(readings.map { "\($0.problem as Any)" })")
        }
    }

    @Test func anchorsThatDoNotParseOrResolveAreNamed() {
        for (bad, words) in [
            ("4.2 s<!-- figure: lesson03 \"total\" #2 -->", "·"),
            ("4.2 s<!-- figure: lesson03 (en) · \"total\" #2 -->", "language"),
            ("4.2 s<!-- figure: lesson03 · \"total\" -->", "#2"),
            ("4.2 s<!-- figure: lesson03 · \"total\" #2 ~10 -->", "~10%"),
            ("no figure<!-- figure: lesson03 · \"total\" #2 -->", "no figure"),
            ("4.2 s<!-- figure: lesson03 rows 8 · \"total\" #2 -->", "no capture lesson03 rows 8"),
            ("4.2 s<!-- figure: lesson03 · \"nothing like it\" #2 -->", "no line"),
            ("4.2 s<!-- figure: lesson03 · \"total\" #9 -->", "#1 4.344"),
            ("x<!-- claim: lesson03 · \"hangs\" #1 -->", "compares"),
            ("4.2 s<!-- figure: lesson03 --rows 8 · \"total\" #2 -->", "dashes"),
            ("x<!-- claim: lesson03 · \"hangs\" #1 < [lesson03 rows 8] \"hangs\" #1 -->", "no capture lesson03 rows 8"),
        ] {
            let text = Self.sample + bad
            let library = Figures.Library(texts: [("Lessons/03-x.md", text)])
            let (readings, problems) = Figures.readings(texts: [("Lessons/03-x.md", text)], library: library)
            #expect(readings.count + problems.count >= 1, "\(bad)")
            #expect(
                problems.count == 1 && problems[0].description.contains(words),
                "\(bad): \(problems.map(\.description))")
        }
        // A comment that is no anchor is left alone.
        #expect(Self.read("4.2 s<!-- a comment -->").isEmpty)
    }

    @Test func aTextReadsItsLessonsRunsInItsOwnLanguage() {
        let texts = [
            ("Lessons/03-x.md", Self.sample),
            (
                "Lessons/ja/03-x.md",
                Self.sample.replacingOccurrences(of: "(en)", with: "(ja)")
                    .replacingOccurrences(of: "4.206", with: "4.5")
            ),
            ("Lessons/docc/en/lesson03.tutorial", "quiz 4.21 s<!-- figure: lesson03 · \"total\" #2 -->"),
            ("Lessons/docc/ja/lesson03.tutorial", "quiz 4.5 秒<!-- figure: lesson03 · \"total\" #2 -->"),
        ]
        let (readings, problems) = Figures.readings(texts: texts, library: Figures.Library(texts: texts))
        #expect(readings.count == 2)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func theUpdateWritesFiguresToTheirOwnDecimalsAndLeavesClaims() {
        let prose = """
            total **0.97 s**<!-- figure: lesson03 variant threaded image-width 4 · "total" #1 --> and \
            1,000 frames<!-- figure: lesson03 · "dropped" #1 * 10 -->; about 9 s<!-- figure: lesson03 · "total" #1 ~10% -->
            faster<!-- claim: lesson03 · "total" #1 < "total" #3 -->
            """
        let text = Self.sample + prose
        let (written, count) = Figures.updated(
            text, path: "Lessons/03-x.md", library: Figures.Library(texts: [("Lessons/03-x.md", text)]))
        #expect(count == 3)
        #expect(
            written == Self.sample + """
                total **1.13 s**<!-- figure: lesson03 variant threaded image-width 4 · "total" #1 --> and \
                2,670 frames<!-- figure: lesson03 · "dropped" #1 * 10 -->; about 4 s<!-- figure: lesson03 · "total" #1 ~10% -->
                faster<!-- claim: lesson03 · "total" #1 < "total" #3 -->
                """)
    }

    @Test func aCapturedLinesNumbers() {
        #expect(
            Figures.numbers(on: "from http://127.0.0.1:44545 lesson01 i2 (0.15x) 3 of 5, 994.7 ms/s").map(\.text) == [
                "127.0.0.1", "44545", "0.15", "3", "5", "994.7",
            ])
        #expect(Figures.numbers(on: "127.0.0.1").first?.value == nil)
    }

    @Test func aPictureAgreesWithTheBlockWhoseTakeawayItCaptions() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("figures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Lessons/images"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = """
            <svg><text x="1">Queues kept the main thread free: the worst freeze went from</text>
            <text x="1">1.79 s to 0.089 s &amp; more.</text></svg>
            """
        try Data(svg.utf8).write(to: folder.appendingPathComponent("Lessons/images/lesson03.svg"))
        func problems(_ takeaway: String) -> [Figures.Problem] {
            let text = """
                <!-- capture: swift run lesson03 (en); svg "Lessons/images/lesson03.svg" -->
                ```
                total 4.344 s

                \(takeaway)
                ```
                """
            return Figures.pictureProblems(library: Figures.Library(texts: [("Lessons/03-x.md", text)]), root: folder)
        }
        #expect(
            problems("Queues kept the main thread free: the worst freeze went from 1.79 s to 0.089 s & more.").isEmpty)
        #expect(
            problems("Queues kept the main thread free: the worst freeze went from 1.69 s to 0.089 s & more.").count
                == 1)
    }
}

extension Figures.Reading {
    /// The captured numbers this reading read: "Lessons/03-gcd-queues.md:240 #2".
    var sourceKeys: [String] { sources.map { "\($0.path):\($0.line) #\($0.index)" } }
}

/// `workshop captures --figures` says, `--update --figures` writes: run as the built program on a
/// made-up workshop with one figure that disagrees with its block.
struct FigureCommandTests {
    @Test func theCheckChangesNothingAndTheUpdateWritesTheFigure() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("figures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("Lessons"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let text = """
            <!-- capture: swift run lesson03 (en) -->
            ```
            total                          4.344 s     4.206 s     4.031 s
            ```

            The threaded run took 4.50 s<!-- figure: lesson03 · "total" #2 -->.

            """
        let file = root.appendingPathComponent("Lessons/03-x.md")
        try Data(text.utf8).write(to: file)
        try Data("// swift-tools-version:6.0\n".utf8).write(to: root.appendingPathComponent("Package.swift"))

        let check = try await WorkshopBinary.run(["captures", "--figures", "--lang", "en"], root: root, timeout: 60)
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("Lessons/03-x.md:6: "), "\(check.stdout)")
        #expect(try String(contentsOf: file, encoding: .utf8) == text)

        let update = try await WorkshopBinary.run(
            ["captures", "--update", "--figures", "--lang", "en"], root: root, timeout: 60)
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        #expect(
            try String(contentsOf: file, encoding: .utf8)
                == text.replacingOccurrences(of: "4.50 s<!--", with: "4.21 s<!--"))
    }
}
