import ExerciseChecks
import Foundation
import Testing
import WorkshopCore

@testable import WorkshopTools

/// What `workshop docs` changes in DocC-Render after `docc convert` (`TutorialRenderer`): the
/// Japanese archive speaks Japanese at /docs/ja/... (no ja-JP/ copy), DocC's own words in it are
/// Japanese, and both archives' tutorial pages fit the window. The toolchain's docc builds the
/// archives here (a few seconds); a renderer that changed fails the build, saying what.
@Suite("Tutorial renderer")
struct TutorialRendererTests {
    static let docc = TutorialArchive.findDocc()

    /// Builds `language`'s archive into a fresh folder; returns it (the caller removes `folder`).
    static func build(_ language: TutorialCatalog.Language, in folder: URL) throws -> URL {
        try TutorialArchive.build(
            language, root: ExerciseRoot.builtFrom, catalogs: folder.appendingPathComponent("catalogs"),
            output: folder.appendingPathComponent("docs"), docc: try #require(docc))
    }

    /// `build`, waited for off Swift's pool in one of the slots the suites share (docc works for minutes).
    static func built(_ language: TutorialCatalog.Language, in folder: URL) async throws -> URL {
        try await Subprocess.Slots.shared.run { try build(language, in: folder) }
    }

    static func text(_ folder: URL, _ prefix: String, _ suffix: String, recursive: Bool = false) throws -> String {
        try TutorialRenderer.files(in: folder, prefix: prefix, suffix: suffix, recursive: recursive)
            .map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
    }

    @Test(
        "the Japanese archive speaks Japanese at /docs/ja/..., DocC's own words included")
    func japaneseArchive() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("renderer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = try await Self.built(.ja, in: folder)
        #expect(TutorialArchive.entry(.ja) == "ja/tutorials/sakusaku")
        #expect(!FileManager.default.fileExists(atPath: archive.appendingPathComponent("ja-JP").path))
        #expect(
            FileManager.default.fileExists(
                atPath: archive.appendingPathComponent("tutorials/sakusaku/lesson03/index.html").path))

        let scripts = try Self.text(archive.appendingPathComponent("js"), "", ".js")
        #expect(scripts.contains(#"VUE_APP_DEFAULT_LOCALE??"ja-JP""#))
        #expect(!scripts.contains(#""Introduction""#))
        #expect(scripts.contains("はじめに"))
        let data = try Self.text(archive.appendingPathComponent("data"), "", ".json", recursive: true)
        for english in ["Check Your Understanding", "Get started"] {
            #expect(!data.contains("\"\(english)\""), "the Japanese pages' data still say \(english)")
        }
        #expect(data.contains("\"理解度を確認する\""))
        #expect(data.contains("\"始める\""))
        let overview = try String(
            contentsOf: archive.appendingPathComponent("data/tutorials/sakusaku.json"), encoding: .utf8)
        #expect(overview.contains(#""estimatedTime":"45分""#))
        #expect(!overview.contains("min\""))
        let page = try String(
            contentsOf: archive.appendingPathComponent("tutorials/sakusaku/lesson03/index.html"), encoding: .utf8)
        #expect(page.contains(#"<html lang="ja-JP""#))
        #expect(try Self.text(archive.appendingPathComponent("css"), "topic.", ".css").contains("overflow-x: clip"))
    }

    @Test(
        "the English archive keeps DocC's English and gets the same fit to the window")
    func englishArchive() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("renderer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = try await Self.built(.en, in: folder)
        #expect(TutorialArchive.entry(.en) == "en/tutorials/sakusaku")
        let scripts = try Self.text(archive.appendingPathComponent("js"), "", ".js")
        #expect(scripts.contains(#"VUE_APP_DEFAULT_LOCALE??"en-US""#))
        #expect(scripts.contains(#"title:"Introduction""#))
        #expect(try Self.text(archive.appendingPathComponent("css"), "topic.", ".css").contains("overflow-x: clip"))
    }

    /// A renderer without the text a change replaces (a newer toolchain's) fails the build,
    /// naming the change and the file, instead of serving pages half in English.
    @Test func aRendererThatChangedIsNamed() throws {
        let archive = FileManager.default.temporaryDirectory.appendingPathComponent("renderer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: archive) }
        let js = archive.appendingPathComponent("js")
        try FileManager.default.createDirectory(at: js, withIntermediateDirectories: true)
        try Data(#"const l=x.VUE_APP_DEFAULT_LOCALE||"en""#.utf8).write(to: js.appendingPathComponent("index.1234.js"))
        let patch = TutorialRenderer.japanese[0]
        #expect {
            try TutorialRenderer.apply(patch, in: archive)
        } throws: { error in
            let said = "\(error)"
            return said.contains("DocC-Render's default locale") && said.contains("js/index.*.js")
                && said.contains(patch.original)
        }
        #expect(throws: TutorialRenderer.Failure.self) { try TutorialRenderer.adjust(archive, for: .en) }  // no css/
    }
}
