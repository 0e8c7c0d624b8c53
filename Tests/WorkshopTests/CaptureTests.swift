import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// The texts' blocks of program output (see `Captures`): every block that looks like output is
/// marked, every marker parses and names the text's own language, and the normaliser and the
/// rules do what `Captures` says. Quick: nothing is run here (`CaptureSlowTests` runs them).
struct CaptureMarkerTests {
    static let root = ExerciseRoot.builtFrom
    static let blocks = Captures.blocks(root: root)

    @Test func everyBlockThatLooksLikeOutputIsMarkedAndEveryMarkerParses() {
        var captures = 0
        for block in Self.blocks {
            switch block.marker {
            case .failure(let error)?:
                Issue.record("\(block.location): the marker does not parse: \(error)")
            case .success(let marker)?:
                if let command = marker.command {
                    captures += 1
                    #expect(
                        command.language == block.language,
                        "\(block.location): a text in \(block.language.rawValue) quotes a run in \(command.language.rawValue)"
                    )
                    for picture in marker.pictures {
                        #expect(
                            Captures.language(ofPicture: picture) == command.language,
                            "\(block.location): \(picture) is the picture of a run in \(command.language.rawValue)")
                    }
                }
            case nil:
                #expect(
                    !Captures.looksLikeOutput(block),
                    "\(block.location) looks like a program's output but has no marker (capture, illustration or quote)"
                )
            }
        }
        // Lessons 01-07 (en, ja), the syllabus, the tutorials.
        #expect(captures >= 60, "\(captures) captures")
        #expect(Self.blocks.contains { $0.path.hasPrefix("Lessons/docc/ja/") && $0.capture != nil })
    }

    /// Each Japanese text captures what its English twin does, run in Japanese.
    @Test func theJapaneseTextsCaptureTheSameCommands() {
        func commands(_ language: Language) -> [String: [String]] {
            var found: [String: [String]] = [:]
            for block in Self.blocks where block.language == language {
                guard let (command, _) = block.capture else { continue }
                let twin = language == .en ? block.path : Self.englishTwin(block.path)
                found[twin, default: []].append(
                    (["swift", "run", command.product] + command.arguments).joined(separator: " "))
            }
            return found
        }
        let english = commands(.en)
        let japanese = commands(.ja)
        #expect(english.keys.sorted() == japanese.keys.sorted())
        for (path, commands) in english {
            #expect(commands == japanese[path], "\(path): \(commands) vs \(japanese[path] ?? [])")
        }
    }

    static func englishTwin(_ path: String) -> String {
        path.replacingOccurrences(of: "/ja/", with: "/en/").replacingOccurrences(of: "Lessons/en/", with: "Lessons/")
            .replacingOccurrences(of: "README.ja.md", with: "README.md")
    }

    @Test func markersParse() throws {
        let marker = try #require(
            try Captures.marker(in: #"  <!-- capture: swift run lesson03 --rows 8 (ja); from "async:"; frames 3 -->"#)?
                .get())
        #expect(marker.kind == .capture)
        #expect(marker.command == Captures.Command(product: "lesson03", arguments: ["--rows", "8"], language: .ja))
        #expect(marker.rules == [.from("async:"), .frames(3)])
        #expect(marker.timeout == Captures.defaultTimeout)
        #expect(
            try Captures.marker(in: "<!-- capture: swift run workshop check NN (en); timeout 300 -->")?.get().timeout
                == 300)
        #expect(try Captures.marker(in: "<!-- illustration: a server's log -->")?.get().note == "a server's log")
        #expect(
            try Captures.marker(
                in: #"<!-- capture: swift run lesson03 (ja); svg "Lessons/images/lesson03-ja.svg" -->"#)?
                .get().pictures == ["Lessons/images/lesson03-ja.svg"])
        #expect(Captures.marker(in: "<!-- a comment -->") == nil)
        #expect(Captures.marker(in: "text") == nil)
        for bad in [
            "<!-- capture: swift run lesson03 -->",  // no language
            "<!-- capture: swift run lesson99 (en) -->",  // no such program
            "<!-- capture: swift run lesson03 --server http://127.0.0.1:8080 (en) -->",
            "<!-- capture: swift run lesson03 --lang ja (ja) -->",
            "<!-- capture: swift run lesson03 (en); lines 9-2 -->",
            "<!-- capture: swift run lesson03 (en); after \"x\" -->",
            "<!-- capture: swift run lesson03 (en); svg \"images/lesson03.svg\" -->",
            "<!-- capture: swift run lesson03 (en); svg \"Lessons/images/lesson03.png\" -->",
            "<!-- capture: lesson03 (en) -->",
            "<!-- captures: swift run lesson03 (en) -->",
            "<!-- quote: -->",
        ] {
            guard case .failure? = Captures.marker(in: bad) else {
                Issue.record("\(bad) parsed")
                continue
            }
        }
    }

    @Test func rulesKeepLines() {
        let output = ["a", "b: one", "c", "d: two", "e", "", ""]
        #expect(Captures.selected(output, rules: [.lines(2, 3)]) == ["b: one", "c"])
        #expect(Captures.selected(output, rules: [.lines(4, nil)]) == ["d: two", "e"])
        #expect(Captures.selected(output, rules: [.from("c"), .to("d:")]) == ["c", "d: two"])
        #expect(Captures.selected(output, rules: [.until("d:"), .from("b")]) == ["b: one", "c"])
        let frames = ["variant"] + (1...9).map { "    0.\($0)00 s  reload: \($0) rows" } + ["", "next"]
        #expect(
            Captures.selected(frames, rules: [.frames(2)]) == [
                "variant", "    0.100 s  reload: 1 rows", "    0.200 s  reload: 2 rows", "    ...",
                "    0.800 s  reload: 8 rows", "    0.900 s  reload: 9 rows", "", "next",
            ])
        #expect(Captures.selected(Array(frames.prefix(6)), rules: [.frames(2)]) == Array(frames.prefix(6)))
    }

    /// What varies from run to run is masked by rule; words, rows and headings are not.
    @Test func theNormaliserMasksWhatVaries() {
        let choices = Captures.Choices(root: Self.root)
        func normal(_ lines: [String], _ language: Language = .en) -> [String] {
            Captures.normalised(lines, language: language, choices: choices).map(\.text)
        }
        // Numbers, ports, a UUID, a count's noun, spaces.
        #expect(
            normal(["from http://127.0.0.1:40541 in /tmp/x-E4A6418D-4E9E-4ED2-BA1C-C3C873E7F0BB,  1 request"])
                == normal(["from http://127.0.0.1:8 in /tmp/x-00000000-0000-0000-0000-000000000000, 12 requests"]))
        // A Screen's frames: grouping, count and order of the events.
        #expect(
            normal(["    0.016 s  placeholder: loading...", "    0.160 s  reload: 20 rows; icon: row 1"])
                == normal(["    0.016 s  placeholder: loading...; icon: row 2", "    ...", "    4.1 s  reload: 2 rows"])
        )
        #expect(normal(["    0.016 s  placeholder: loading..."]) != normal(["    0.016 s  placeholder: reloading..."]))
        // How many more reports the thread sanitizer wrote about one race.
        let race = "got: Swift access race: Modifying access by thread T1 in RequestCounter.record(_:)"
        #expect(normal([race + " (and 1 more report)"]) == normal([race]))
        #expect(normal([race + " (and 2 more reports)", "next"]) == normal([race, "next"]))
        #expect(normal([race + " (and 1 more report)"]) != normal(["got: Swift access race: Reading access"]))
        // A timeline's bars and the order of its lanes.
        #expect(normal(["main  |██··|", "queue |·█··|"]) == normal(["queue |··██|", "main  |█···|"]))
        #expect(normal(["main  |██··|"]) != normal(["main2 |██··|"]))
        // A table: the heading and each row's words, whatever their order and width.
        let table = ["metric     no-thread  threaded", "----------------------------", "order   a b c   b a c"]
        #expect(normal(table) == normal(["metric no-thread threaded", "------------", "order c a b a c b"]))
        #expect(
            normal(table) != normal(["metric no-thread async", "----------------------------", "order a b c b a c"]))
        // A phrase picked by measurement, and one a busy machine adds.
        #expect(
            normal(["async: total 1.0 s, as free and as fast as the queue, without a thread."])
                == normal([
                    "async: total 1.0 s, as fast as the queue but with a longer freeze (worst 1 s vs 2 s), without a thread."
                ]))
        // The alternatives place their arguments differently: the clause as a whole is compared.
        #expect(
            normal(["タスクグループは、自前のキューなしでキューと同じくらいフリーズが短く、同じくらい速くなりました。"], .ja)
                == normal(
                    ["タスクグループは、自前のキューなしで今回はキューよりフリーズが長く、遅く(最大フリーズ 0.3 秒 対 0.1 秒、合計 2.00 秒 対 1.00 秒)なりました。"],
                    .ja))
        #expect(
            normal(["Machine: with nothing to do, the main loop was up to 0.004 s late (quiet)."])
                == normal([
                    "Machine: with nothing to do, the main loop was up to 0.104 s late (busy: freezes up to that size are the machine's, not the code's)."
                ]))
        // The words around a picked phrase are still compared.
        #expect(
            normal(["Machine: with nothing to do, the main loop was up to 0.004 s late (quiet)."])
                != normal(["Machine: with nothing to do, the main loop ran up to 0.004 s late (quiet)."]))
        #expect(
            normal(["Done.", "(a busy machine: see the takeaway)"]) == normal(["Done."]))
        #expect(normal(["A word."]) != normal(["Another word."]))
    }

    /// A run whose banner says the machine was busy is named, so that it can be run again.
    @Test func aBusyRunIsToldFromAQuietOne() throws {
        let choices = Captures.Choices(root: Self.root)
        let translations = Captures.Choices.translations(root: Self.root)
        let busy = Captures.Choices.groups[0][1]
        let japanese = try #require(translations[busy])
        #expect(
            choices.saysBusy(
                ["Machine: with nothing to do, the main loop was up to 0.1 s late (\(busy))."], language: .en))
        #expect(
            !choices.saysBusy(
                ["Machine: with nothing to do, the main loop was up to 0.004 s late (quiet)."], language: .en))
        #expect(choices.saysBusy(["マシン: 最大 0.1 秒でした(\(japanese))。"], language: .ja))
    }

    /// Every phrase the normaliser treats as picked by measurement is still one a program says,
    /// in English (a string literal in Sources) and in Japanese (its table).
    @Test func thePhrasesPickedByMeasurementAreThePrograms() throws {
        let translations = Captures.Choices.translations(root: Self.root)
        var sources = ""
        let folder = Self.root.appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(atPath: folder.path))
        for case let file as String in walker where file.hasSuffix(".swift") {
            sources += try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        }
        for phrase in Captures.Choices.groups.joined() + Captures.Choices.added + Captures.Choices.addedInEnglish {
            let literal = "\"" + phrase.replacingOccurrences(of: "\"", with: "\\\"") + "\""
            #expect(sources.contains(literal), "no program says \(literal)")
            if !Captures.Choices.addedInEnglish.contains(phrase) {
                #expect(translations[phrase] != nil, "\(phrase) has no Japanese")
            }
        }
    }

    /// A block as the update writes it: indented like its fence, from the lines its rules keep.
    @Test func theUpdateWritesTheRunsLines() {
        let text = """
            - a list item:

              <!-- capture: swift run lesson03 (en); from "b" -->
              ```
              old
              ```
            """
        let command = Captures.Command(product: "lesson03", arguments: [], language: .en)
        let written = Captures.updated(text, path: "Lessons/x.md", outputs: [command: ["a", "b", "", "c  "]])
        #expect(
            written == """
                - a list item:

                  <!-- capture: swift run lesson03 (en); from "b" -->
                  ```
                  b

                  c
                  ```
                """)
    }

    /// A cut list of frames agrees when every event it shows is one the run drew anywhere in
    /// that list: on a busy machine the run's last frames are others, or a short state is never
    /// drawn. A renamed event still differs.
    @Test func framesAgreeWhenTheRunDrewEveryEventTheTextShows() throws {
        let text = """
            <!-- capture: swift run lesson06 (en); frames 1 -->
            ```
            saving
                0.016 s  placeholder: saving...
                ...
                2.368 s  status: batch: 100 of 100 rows committed; status: batch: saved in 1.17 s
            done
            ```

            """
        let block = try #require(Captures.blocks(in: text, path: "Lessons/x.md").first)
        let rules = try #require(block.capture?.rules)
        let choices = Captures.Choices(root: Self.root)
        // Busy: the committed frame came early, and the last frame shows only the save.
        let busy = [
            "saving", "    0.016 s  placeholder: saving...", "    0.100 s  status: batch: 10 of 100 rows committed",
            "    1.500 s  status: batch: 100 of 100 rows committed", "    3.100 s  status: batch: saved in 2.9 s",
            "done",
        ]
        #expect(Captures.differences(block, output: busy, rules: rules, choices: choices).isEmpty)
        // An event the program no longer prints.
        let renamed = busy.map { $0.replacingOccurrences(of: "committed", with: "written") }
        let differences = Captures.differences(block, output: renamed, rules: rules, choices: choices)
        #expect(differences.map(\.line) == [4], "\(differences)")
    }

    /// Where a block and a run differ is named by the text's file and line.
    @Test func aDifferenceNamesTheFileAndTheLine() throws {
        let text = "intro\n<!-- capture: swift run lesson01 (en) -->\n```\nLesson 01\n  ok    waits\n```\n"
        let block = try #require(Captures.blocks(in: text, path: "Lessons/x.md").first)
        let differences = Captures.differences(
            block, output: ["Lesson 01", "  ok    sleeps"], rules: [], choices: Captures.Choices(root: Self.root))
        #expect(differences.map(\.line) == [5])
        #expect(differences.first?.description.hasPrefix("Lessons/x.md:5:") == true)
    }
}

/// The slow tier (its name ends in SlowTests): every command a capture names, run once as the
/// built program in its language, against every block that quotes it. A block that says
/// other words, rows, check names, counts or headings than the run fails here, by file and
/// line; `swift run workshop captures --update` writes it again.
@Suite(.serialized) struct CaptureSlowTests {
    static let root = ExerciseRoot.builtFrom
    static let blocks = Captures.blocks(root: root)
    static let commands = Captures.commands(of: blocks)

    @Test(arguments: commands.map(\.command))
    func everyBlockSaysWhatItsCommandPrints(_ command: Captures.Command) async throws {
        let timeout = Self.commands.first { $0.command == command }?.timeout ?? Captures.defaultTimeout
        let runner = Captures.Runner(
            binDirectory: WorkshopBinary.directory, root: Self.root,
            // The machine taken as quiet: the texts quote quiet runs, and a busy run's takeaway
            // compares nothing (CI runs this tier three processes wide on two cores).
            environment: ["WORKSHOP_SUPPORT_BUILT": "1", "SAKUSAKU_MACHINE": "quiet"])
        // Waited for off Swift's pool, in one of the slots the suites share.
        let run = try await Subprocess.Slots.shared.run { runner.run(command, timeout: timeout) }
        if let problem = run.problem {
            Issue.record("\(command): \(problem)")
            return
        }
        let choices = Captures.Choices(root: Self.root)
        for block in Self.blocks {
            guard let (quoted, rules) = block.capture, quoted == command else { continue }
            for difference in Captures.differences(block, output: run.lines, rules: rules, choices: choices) {
                Issue.record("\(difference) (\(command); `swift run workshop captures --update` writes it)")
            }
        }
    }
}
