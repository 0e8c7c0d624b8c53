/// One self-contained HTML page of a lesson run: the timeline picture, the metrics table and
/// the takeaway, for a browser on the projector or to send to learners after the session.
/// No scripts, no external styles, fonts or images: the SVG is inline. Made for a 1280 x 800
/// projector: the picture scales to the page's width, the table scrolls in its own box if a
/// lesson has more variants than fit, and the title, each failure and the takeaway are said once
/// (the picture is drawn without its own headings: `TimelinePicture(headings: false)`).
public enum RunPage {
    public static func html(report: LessonReport, picture: TimelinePicture, banner: String) -> String {
        let header =
            "<tr><th>\(xmlEscaped(localized("metric")))</th>"
            + report.variants.map { "<th>\(xmlEscaped($0.name))</th>" }.joined() + "</tr>"
        let rows = report.metricNames.map { name in
            "<tr><td>\(xmlEscaped(name.rawValue))</td>"
                + report.variants.map { "<td class=\"n\">\(xmlEscaped($0[name]?.tableValue ?? "-"))</td>" }.joined()
                + "</tr>"
        }
        let failures = report.variants.compactMap { variant in
            variant.failure.map {
                "<p class=\"failed\">" + xmlEscaped(localized(format: "%1$@ failed: %2$@", variant.name, $0)) + "</p>"
            }
        }
        let svg = picture.inlineSVG
        let title = xmlEscaped(TimelinePicture.lessonTitle(number: report.lesson, title: report.title))
        // Japanese fonts in line after DejaVu Sans when the page speaks Japanese.
        let fonts =
            Localized.language == .ja
            ? "\"DejaVu Sans\", \"Hiragino Sans\", \"Noto Sans CJK JP\", \"Noto Sans JP\", sans-serif"
            : "\"DejaVu Sans\", Helvetica, Arial, sans-serif"
        return """
            <!DOCTYPE html>
            <html lang="\(Localized.language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>
            <style>
            body { font-family: \(fonts); margin: 1.5em 2em; color: #111827; }
            h1 { font-size: 2em; margin: 0 0 0.4em 0; } p { font-size: 1.3em; max-width: 60em; overflow-wrap: anywhere; }
            svg { border: 1px solid #e5e7eb; }
            .scroll { max-width: 100%; overflow-x: auto; }
            table { border-collapse: collapse; font-size: 1.2em; margin: 1em 0; }
            th, td { border-bottom: 1px solid #e5e7eb; padding: 0.3em 1em; text-align: left; }
            td.n { text-align: right; font-variant-numeric: tabular-nums; }
            .failed { color: #b91c1c; }
            </style>
            </head>
            <body>
            <h1>\(title)</h1>
            <p>\(xmlEscaped(banner).replacingOccurrences(of: "\n", with: "<br>"))</p>
            \(failures.joined(separator: "\n"))
            \(svg)
            <div class="scroll"><table>
            \(header)
            \(rows.joined(separator: "\n"))
            </table></div>
            <p>\(xmlEscaped(report.takeaway))</p>
            </body>
            </html>

            """
    }
}
