import ExerciseChecks
import Foundation
import LessonTestSupport
import Testing
import WorkshopCore
import WorkshopTools

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `workshop check NN --svg FILE`: the learner's run and the reference's on one timeline, for
/// an exercise whose checks record one (the catalog's trait "timeline"). As shipped its work is
/// in the main lane, which is frozen; the reference's is in another lane. The picture is valid
/// SVG and renders.
@Suite struct CheckPictureSlowTests {
    @Test func checkDrawsYourRunBesideTheReference() async throws {
        try #require(WorkshopBinary.isBuilt, "run `swift build` first: the tests drive .build/debug/workshop")
        let workspace = try TestWorkspace()
        let svg = workspace.path("runs.svg")
        let html = workspace.path("runs.html")
        let exercise = Subject.timeline
        let check = try await WorkshopBinary.run(
            ["check", exercise.id, "--svg", svg, "--html", html], root: workspace.root)
        #expect(check.status == 1, "as shipped it fails: \(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("Picture written to \(svg)"), "\(check.stdout)")
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(XMLParser(data: Data(picture.utf8)).parse(), "well-formed SVG")
        #expect(picture.contains(">your code<") && picture.contains(">reference<"), "both runs are drawn")
        // The lanes' names (right-aligned, 20 px): the shipped file's work on main, the reference's elsewhere.
        let lanes = Set(
            picture.components(
                separatedBy: "font-size=\"20\" font-weight=\"normal\" fill=\"#111827\" text-anchor=\"end\">"
            )
            .dropFirst().compactMap { $0.components(separatedBy: "<").first })
        #expect(lanes.contains("main"), "the shipped file's work is in the main lane: \(lanes)")
        #expect(lanes.count > 1, "the reference's work is in a lane of its own: \(lanes)")
        #expect(picture.contains("frozen"), "the main thread's freeze is shown")

        // Rendered as a projector would show it (librsvg, installed by `bash .ci/setup --extras`).
        let renderer = "/usr/bin/rsvg-convert"
        try #require(FileManager.default.isExecutableFile(atPath: renderer), "rsvg-convert is not installed")
        let png = workspace.path("runs.png")
        let rendered = try await Subprocess.run(renderer, ["-w", "1200", svg, "-o", png], timeout: 60, in: .shared)
        #expect(rendered.succeeded, "\(rendered.stderr)")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: png))
        #expect(Array(bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47], "a PNG")
        #expect(bytes.count > 5_000, "something was drawn")

        // An exercise whose checks record no timeline says so, and the check's verdict still prints.
        let pure = Subject.pure
        let none = try await WorkshopBinary.run(["check", pure.id, "--svg", svg], root: workspace.root)
        #expect(none.stderr.contains("record no timeline"), "\(none.stderr)")
        #expect(none.stdout.contains("exercise \(pure.id): "), "\(none.stdout)")

        try checkPage(html, of: exercise)  // last: it is skipped without a browser
    }

    /// The page of `check NN --html`, for a 1280 x 800 projector: HTML with the picture inline (no
    /// XML declaration in its body), the title and the verdict each said once, the right words;
    /// in a browser at that size it does not scroll sideways (the picture scales by its viewBox).
    func checkPage(_ path: String, of exercise: Exercise) throws {
        let page = try String(contentsOfFile: path, encoding: .utf8)
        #expect(page.contains("<svg"))
        #expect(!page.contains("<?xml"), "an XML declaration inside the page")
        #expect(page.contains("viewBox=\"0 0 "), "the picture scales by its viewBox")
        #expect(!page.contains("work ran on"), "the old words")
        // What a reader sees: the picture's <title> and <desc> (for screen readers) and the tags out.
        let seen = page.replacingOccurrences(of: "<title[^>]*>[^<]*</title>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "<desc[^>]*>[^<]*</desc>", with: "", options: .regularExpression)
            .replacingOccurrences(of: "<[^>]+>", with: "\n", options: .regularExpression)
            .replacingOccurrences(of: "&apos;", with: "'")
        let title = "Exercise \(exercise.id): your run and the reference's"
        #expect(seen.components(separatedBy: title).count - 1 == 1, "the title once:\n\(seen)")
        #expect(seen.components(separatedBy: "checks fail").count - 1 == 1, "the verdict once:\n\(seen)")
        #expect(seen.components(separatedBy: "every check passes").count - 1 == 1, "the verdict once:\n\(seen)")

        try #require(Browser.path != nil, "\(Browser.missing)")
        let probed = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("probed.html")
        try page.replacingOccurrences(of: "</body>", with: "<script>\(Browser.probeScript)</script></body>")
            .write(to: probed, atomically: true, encoding: .utf8)
        let dump = try Browser.dom(probed.absoluteString)
        #expect(dump.succeeded, "\(dump.stderr)")
        let layout = try #require(
            Browser.Layout(dom: dump.stdout), "the probe wrote nothing: \(dump.stdout.prefix(500))")
        print("check \(exercise.id) --html at 1280 x 800: \(layout)")
        #expect(layout.innerWidth == Browser.projector.width)
        #expect(layout.scrollWidth <= layout.innerWidth, "\(layout)")
        #expect(!layout.scrollsSideways, "\(layout)")
        let shot = Browser.screenshotFolder().appendingPathComponent("check-html.png").path
        if let failure = try Browser.picture(
            "check \(exercise.id) --html", of: URL(fileURLWithPath: path).absoluteString, to: shot)
        {
            Issue.record("\(failure)")
        }
    }
}
