import ArgumentParser
import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools

/// `check --svg FILE` / `--html FILE`: the learner's run and the reference's on one timeline
/// (which lane each fetch ran in, when the main thread froze), so the fix is something you see.
struct CheckPictureOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            localized("Also draw your run and the reference's on one timeline (SVG) into this file."),
            valueName: "file"))
    var svg: String?

    @Option(
        help: ArgumentHelp(
            localized("Also write one web page with that picture and both verdicts."), valueName: "file"))
    var html: String?

    var wanted: Bool { svg != nil || html != nil }

    func validate() throws {
        try OutputFileFlag.check("--svg", svg)
        try OutputFileFlag.check("--html", html)
    }

    /// Checks the reference too and writes the picture (and page). Returns the lines to print,
    /// or throws a failure that says why there is no picture.
    func write(
        _ exercise: Exercise, yours: ExerciseRunner.Report, in workspace: Workspace, runner: ExerciseRunner
    ) throws -> [String] {
        guard let mine = yours.timeline else {
            throw WorkshopFailure(Text.noTimeline(exercise.id))
        }
        let reference = runner.check(exercise, sources: workspace.solutionSources(exercise))
        guard let theirs = reference.timeline else { throw WorkshopFailure(Text.noTimeline(exercise.id)) }
        func verdict(_ report: ExerciseRunner.Report) -> String {
            let failed = report.results.filter { !$0.passed && !$0.notRun }.count
            return failed == 0 ? Text.pictureAllPass : Text.pictureFailing(failed, of: report.results.count)
        }
        let caption =
            "\(Text.pictureYours): \(verdict(yours))\(localized("; "))\(Text.pictureReference): \(verdict(reference))"
        func picture(headings: Bool) -> TimelinePicture {
            TimelinePicture(
                title: Text.pictureTitle(exercise), subtitle: Text.pictureSubtitle,
                runs: [
                    mine.pictureRun(name: Text.pictureYours, failure: yours.passed ? nil : verdict(yours)),
                    theirs.pictureRun(
                        name: Text.pictureReference, failure: reference.passed ? nil : verdict(reference)),
                ],
                caption: caption, headings: headings)
        }
        var lines: [String] = []
        if let svg {
            try save(picture(headings: true).svg, to: svg, flag: "--svg")
            lines.append(Text.pictureWritten(svg))
        }
        if let html {
            try save(
                Self.page(exercise, caption: caption, passed: yours.passed, picture(headings: false)), to: html,
                flag: "--html")
            lines.append(Text.pictureWritten(html))
        }
        return lines
    }

    /// The page for a projector of 1280 x 800: the title, what the lanes mean and the verdict,
    /// each once, then the picture (drawn without its own headings), as wide as the page, scaled
    /// by its viewBox.
    static func page(_ exercise: Exercise, caption: String, passed: Bool, _ picture: TimelinePicture) -> String {
        let title = xmlEscaped(Text.pictureTitle(exercise))
        return """
            <!doctype html>
            <html lang="\(Language.current == .ja ? "ja" : "en")"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <style>
            body { font-family: sans-serif; margin: 1.5em 2em; color: #111827; }
            h1 { font-size: 1.8em; margin: 0 0 0.3em 0; }
            p { font-size: 1.2em; margin: 0.3em 0; overflow-wrap: anywhere; }
            .lanes { color: #374151; }
            .verdict { font-weight: bold; }
            .verdict.failing { color: #b91c1c; }
            svg { border: 1px solid #e5e7eb; margin-top: 0.8em; }
            </style></head>
            <body><h1>\(title)</h1>
            <p class="lanes">\(xmlEscaped(Text.pictureSubtitle))</p>
            <p class="verdict\(passed ? "" : " failing")">\(xmlEscaped(caption))</p>
            \(picture.inlineSVG)
            </body></html>

            """
    }

    private func save(_ text: String, to path: String, flag: String) throws {
        do { try text.write(toFile: path, atomically: true, encoding: .utf8) } catch {
            throw WorkshopFailure(
                localized(format: "%1$@: could not write %2$@: %3$@", flag, path, error.localizedDescription))
        }
    }
}
