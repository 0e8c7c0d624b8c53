import Foundation
import WorkshopCore

extension Figures {
    /// The words of an SVG picture: its `<text>` elements' contents, unescaped, in order.
    public static func pictureText(_ svg: String) -> String {
        guard let expression = try? NSRegularExpression(pattern: #"<text[^>]*>([^<]*)</text>"#) else { return "" }
        return expression.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).compactMap { match in
            Range(match.range(at: 1), in: svg).map { String(svg[$0]) }
        }.joined(separator: " ")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Where a capture's picture (`svg "..."`) is missing, or is not of the run its blocks quote:
    /// the picture's caption is the run's takeaway, so the last line of the command's blocks in
    /// that text must be in the picture's words (spaces aside: a caption is wrapped).
    public static func pictureProblems(library: Library, root: URL) -> [Problem] {
        picturesOutOfStep(library: library, root: root).map(\.problem)
    }

    /// The commands whose picture is missing or not of the run their blocks quote: the update
    /// draws them again, with their blocks.
    public static func commandsWithStalePictures(library: Library, root: URL) -> Set<Captures.Command> {
        Set(picturesOutOfStep(library: library, root: root).map(\.command))
    }

    static func picturesOutOfStep(library: Library, root: URL) -> [(command: Captures.Command, problem: Problem)] {
        var problems: [(Captures.Command, Problem)] = []
        for path in library.paths {
            for block in library.blocks[path] ?? [] {
                guard let (command, rules) = block.capture else { continue }
                for picture in Captures.pictures(in: rules) {
                    guard
                        let svg = try? String(contentsOf: root.appendingPathComponent(picture), encoding: .utf8)
                    else {
                        problems.append(
                            (
                                command,
                                Problem(
                                    path: path, line: block.fenceLine - 1,
                                    message: localized(
                                        format: "%@ is missing: `swift run workshop captures --update` draws it",
                                        picture))
                            ))
                        continue
                    }
                    let lines = library.lines(of: name(of: command), language: command.language, for: path) ?? []
                    guard
                        let last = lines.last(where: { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty })
                    else { continue }
                    func squeezed(_ text: String) -> String { text.filter { !$0.isWhitespace } }
                    if !squeezed(pictureText(svg)).contains(squeezed(last.text)) {
                        problems.append(
                            (
                                command,
                                Problem(
                                    path: path, line: block.fenceLine - 1,
                                    message: localized(
                                        format:
                                            "%1$@ is not of the run this capture quotes: its caption is not %2$@:%3$d. `swift run workshop captures --update %4$@` writes both from one run",
                                        picture, last.path, last.line, path))
                            ))
                    }
                }
            }
        }
        return problems
    }
}
