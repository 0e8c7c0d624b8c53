import Foundation

/// The runs of a lesson as one picture for a projector: for each variant, one lane per thread
/// or queue (main on top), busy spans coloured by what ran, the main thread's freezes shaded
/// with their length, dropped frames marked under the main lane, and when the first content
/// and the last of it appeared. All variants share one time axis, so they compare at a glance.
///
/// The SVG is self-contained: no scripts, no external fonts, images or links.
public struct TimelinePicture: Sendable {
    /// One variant's timeline, as the harness hands it over.
    public struct Run: Sendable {
        public var name: String
        public var spans: [Trace.Span]
        public var stalls: [Stall]
        public var firstContentSeconds: Double?
        public var doneSeconds: Double
        public var droppedFrames: Int
        public var failure: String?

        public init(
            name: String, spans: [Trace.Span], stalls: [Stall], firstContentSeconds: Double?, doneSeconds: Double,
            droppedFrames: Int, failure: String? = nil
        ) {
            self.name = name
            self.spans = spans
            self.stalls = stalls
            self.firstContentSeconds = firstContentSeconds
            self.doneSeconds = doneSeconds
            self.droppedFrames = droppedFrames
            self.failure = failure
        }
    }

    /// Where a lane's track is in the picture (SVG units, which are pixels at scale 1).
    public struct LaneBox: Sendable, Equatable {
        public var x: Double
        public var y: Double
        public var width: Double
        public var height: Double
    }

    /// What ran, by the words in a span's name, and its colour.
    public enum Kind: String, CaseIterable, Sendable {
        case fetch, parse
        case ui = "draw / show"
        case database = "database"
        case compute, other

        /// The legend's words for this kind, in the language the program speaks.
        public var label: String { localized(rawValue) }

        /// Colours for a washed-out projector and for colour-blind eyes: from the Okabe-Ito
        /// palette (told apart with the common colour-vision deficiencies), darkened where
        /// needed so that each has at least 3:1 contrast against the white background (WCAG's
        /// minimum for graphics; `TimelinePictureTests` computes it). Nothing is told by colour
        /// alone: each lane has its name, each freeze its label, the legend its words.
        public var color: String {
            switch self {
            case .fetch: "#0072b2"
            case .parse: "#b35c00"
            case .ui: "#00845f"
            case .database: "#7b3fc4"
            case .compute: "#0f7c86"
            case .other: "#6b7280"
            }
        }

        public init(spanName name: String) {
            let text = name.lowercased()
            func has(_ words: String...) -> Bool { words.contains { text.contains($0) } }
            if has("fetch", "download", "request", "login", "get ", "wait") {
                self = .fetch
            } else if has("parse", "decode", "inflate", "gunzip", "xml", "json") {
                self = .parse
            } else if has("commit", "insert", "upsert", "save", "write", "query", "sql", "preload", "transaction") {
                self = .database
            } else if has("reload", "show", "draw", "set icon", "apply", "display", "update") {
                self = .ui
            } else if has("measure", "height", "layout", "solve", "compute") {
                self = .compute
            } else {
                self = .other
            }
        }
    }

    /// The picture as a file (`--svg`): an XML declaration, and its size in pixels.
    public let svg: String
    /// The same picture for inside an HTML page: no XML declaration (an HTML body takes none),
    /// as wide as the page lets it be and scaled by its viewBox, never cut off.
    public let inlineSVG: String
    /// The main lane of each variant, by variant name (tests count its pixels).
    public let mainLanes: [String: LaneBox]
    public let width: Double
    public let height: Double

    /// The main thread's freezes: dark red, with a label in words beside each long one.
    public static let freezeColor = "#c0191f"

    // Sizes chosen for a projector at the back of a room: nothing under 18 px.
    static let canvasWidth = 1600.0
    static let trackX = 300.0
    static let trackEnd = 1560.0
    static let laneHeight = 40.0
    static let laneGap = 8.0

    /// - Parameter headings: whether the picture draws its title, subtitle, caption and each
    ///   run's failure. A page that says them in its own text (`RunPage`, `check --html`) draws
    ///   the picture without them, so that each is said once. (The picture's `<title>` and
    ///   `<desc>`, for screen readers, are there either way.)
    public init(title: String, subtitle: String, runs: [Run], caption: String, headings: Bool = true) {
        let end = max(runs.map(\.doneSeconds).max() ?? 1, 0.001)
        let scale = (Self.trackEnd - Self.trackX) / end
        func x(_ seconds: Double) -> Double { Self.trackX + max(0, min(seconds, end)) * scale }

        var body: [String] = []
        var lanes: [String: LaneBox] = [:]
        var y = headings ? 40.0 : 0
        if headings {
            body.append(text(title, x: 40, y: y + 24, size: 34, weight: "bold"))
            y += 44
            // A long parameter list wraps instead of running off the right edge.
            for subtitleLine in Self.wrap(subtitle, width: 130) {
                body.append(text(subtitleLine, x: 40, y: y + 20, size: 20, color: "#374151"))
                y += 28
            }
        }
        y += 22
        var kindsSeen: Set<Kind> = []

        for run in runs {
            body.append(text(run.name, x: 40, y: y + 28, size: 28, weight: "bold"))
            if headings, let failure = run.failure {
                body.append(
                    text(
                        localized(format: "failed: %@", failure), x: Self.trackX, y: y + 26, size: 20, color: "#b91c1c")
                )
            }
            y += 44
            let laneNames = Self.laneOrder(run.spans)
            let blockTop = y
            for lane in laneNames {
                let box = LaneBox(x: Self.trackX, y: y, width: Self.trackEnd - Self.trackX, height: Self.laneHeight)
                if lane == "main" { lanes[run.name] = box }
                body.append(text(lane, x: Self.trackX - 12, y: y + 27, size: 20, anchor: "end"))
                body.append(rect(x: box.x, y: y, width: box.width, height: box.height, fill: "#f3f4f6"))
                if lane == "main" {
                    // Freezes behind the spans, so a frozen main lane reads red where it is idle too.
                    for stall in run.stalls {
                        body.append(
                            rect(
                                x: x(stall.start), y: y, width: max(1, x(stall.end) - x(stall.start)),
                                height: box.height, fill: Self.freezeColor, opacity: 0.18))
                    }
                }
                for span in run.spans where span.lane == lane {
                    let kind = Kind(spanName: span.name)
                    kindsSeen.insert(kind)
                    let left = x(span.start)
                    body.append(
                        rect(
                            x: left, y: y + 4, width: max(2, x(span.end) - left), height: box.height - 8,
                            fill: kind.color, title: "\(span.name): \(secondsText(span.end - span.start))"))
                }
                y += Self.laneHeight + Self.laneGap
                if lane == "main" { y = Self.drawFrozen(run, into: &body, x: x, scale: scale, y: y) }
            }
            if laneNames.isEmpty {
                body.append(
                    text(localized("(nothing recorded)"), x: Self.trackX, y: y + 24, size: 20, color: "#6b7280"))
                y += Self.laneHeight
            }
            // The moments the user cares about: something on screen, and everything on screen.
            var marks = [(localized("done"), run.doneSeconds)]
            if let first = run.firstContentSeconds {
                // Close together (no-thread: everything appears at the end), one label says both.
                if abs(x(first) - x(run.doneSeconds)) < 260 {
                    marks = [(localized("first content and done"), run.doneSeconds)]
                } else {
                    marks.insert((localized("first content"), first), at: 0)
                }
            }
            for (label, seconds) in marks {
                let mark = x(seconds)
                let color = "#111827"
                body.append(line(x1: mark, y1: blockTop - 6, x2: mark, y2: y, color: color, dash: "6 4"))
                let anchor = mark > Self.trackEnd - 200 ? "end" : "start"
                body.append(
                    text(
                        "\(label) \(secondsText(seconds))", x: mark + (anchor == "end" ? -6 : 6), y: blockTop - 10,
                        size: 18,
                        anchor: anchor))
            }
            y += 30
        }

        // The shared time axis.
        body.append(line(x1: Self.trackX, y1: y, x2: Self.trackEnd, y2: y, color: "#111827"))
        for tick in Self.ticks(upTo: end) {
            body.append(line(x1: x(tick), y1: y, x2: x(tick), y2: y + 10, color: "#111827"))
            body.append(text(tick == 0 ? "0" : secondsText(tick), x: x(tick), y: y + 34, size: 20, anchor: "middle"))
        }
        y += 70

        // Legend: only the colours that appear.
        var legendX = 40.0
        for kind in Kind.allCases where kindsSeen.contains(kind) {
            body.append(rect(x: legendX, y: y, width: 28, height: 28, fill: kind.color))
            body.append(text(kind.label, x: legendX + 38, y: y + 22, size: 20))
            legendX += 60 + Double(displayWidth(kind.label)) * 11
        }
        body.append(rect(x: legendX, y: y, width: 28, height: 28, fill: Self.freezeColor, opacity: 0.35))
        body.append(text(localized("main thread frozen"), x: legendX + 38, y: y + 22, size: 20))
        y += headings ? 60 : 40

        if headings {
            for captionLine in Self.wrap(caption, width: 110) {
                body.append(text(captionLine, x: 40, y: y + 22, size: 22))
                y += 32
            }
            y += 20
        }

        width = Self.canvasWidth
        height = y
        mainLanes = lanes
        let contents = """
            viewBox="0 0 \(Int(width)) \(Int(height))" font-family="\(Self.fontFamily)" \
            role="img" aria-labelledby="picture-title picture-desc">
            <title id="picture-title">\(xmlEscaped(title))</title>
            <desc id="picture-desc">\(xmlEscaped(Self.description(subtitle: subtitle, runs: runs, caption: caption)))</desc>
            <rect x="0" y="0" width="\(Int(width))" height="\(Int(height))" fill="#ffffff"/>
            \(body.joined(separator: "\n"))
            </svg>

            """
        svg =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"\(Self.languageAttribute) "
            + "width=\"\(Int(width))\" height=\"\(Int(height))\" " + contents
        inlineSVG =
            "<svg xmlns=\"http://www.w3.org/2000/svg\"\(Self.languageAttribute) width=\"100%\" "
            + "style=\"display: block; max-width: \(Int(width))px; height: auto\" " + contents
    }

    /// What a screen reader says instead of the picture: the subtitle, each run's worst freeze
    /// and its lanes, and the caption.
    static func description(subtitle: String, runs: [Run], caption: String) -> String {
        let each = runs.map { run -> String in
            let worst = run.stalls.map(\.seconds).max() ?? 0
            let lanes = laneOrder(run.spans).joined(separator: localized(", "))
            return localized(
                format: "%1$@: done after %2$@ s, the main thread's worst freeze %3$@ s; its lanes: %4$@.", run.name,
                format(run.doneSeconds), format(worst), lanes.isEmpty ? localized("no lane") : lanes)
        }
        return ([subtitle] + each + [caption]).filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// Under the main lane: each freeze's length, and its dropped frames (a tick per frame
    /// where they are far enough apart to see, else one bar with the count).
    private static func drawFrozen(
        _ run: Run, into body: inout [String], x: (Double) -> Double, scale: Double, y: Double
    ) -> Double {
        let frameWidth = 0.016 * scale
        var hasLabel = false
        // Where the last label ends: a freeze right after another gets its ticks but no label
        // of its own, so two labels never print over each other.
        var labelsEnd = -Double.infinity
        // Every run's worst freeze is said in words, however short: a threaded run's 40 ms
        // freeze deserves its label as much as an async run's 120 ms one (the reader compares).
        let worst = run.stalls.max { $0.seconds < $1.seconds }
        for stall in run.stalls {
            let left = x(stall.start)
            let right = x(stall.end)
            let frames = max(0, Int(stall.seconds / 0.016) - 1)
            if frameWidth >= 3 {
                for frame in 0..<frames {
                    let tick = left + Double(frame + 1) * frameWidth
                    body.append(line(x1: tick, y1: y - 4, x2: tick, y2: y + 6, color: Self.freezeColor))
                }
            } else {
                body.append(rect(x: left, y: y - 4, width: max(2, right - left), height: 8, fill: Self.freezeColor))
            }
            let labelX = min(left, Self.trackEnd - 420)
            if stall.seconds >= 0.1 || stall == worst, labelX >= labelsEnd {
                hasLabel = true
                let label = localized(
                    format: frames == 1 ? "frozen %1$@ s, %2$d frame dropped" : "frozen %1$@ s, %2$d frames dropped",
                    format(stall.seconds), frames)
                body.append(text(label, x: labelX, y: y + 28, size: 20, color: "#b91c1c"))
                labelsEnd = labelX + Double(displayWidth(label)) * 11 + 12  // about 11 px a character at 20 px
            }
        }
        return y + (hasLabel ? 40 : 12)
    }

    /// Lanes in the order a reader wants them (`Trace.laneOrder`): main first, then in order of
    /// first use, numbered queues by their number.
    static func laneOrder(_ spans: [Trace.Span]) -> [String] { Trace.laneOrder(spans) }

    /// Round tick marks: 0, then steps of 1, 2 or 5 x 10^n seconds, at most about 10 of them.
    static func ticks(upTo end: Double) -> [Double] {
        let rough = end / 8
        let magnitude = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? magnitude * 10
        return stride(from: 0, through: end + step * 1e-9, by: step).map { $0 }
    }

    /// Words wrapped to lines of at most `width` columns (a Japanese character takes two).
    /// Japanese has no spaces between words: a run of it too long for a line is cut between
    /// characters, never before 、。) and the like.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        var pieces: [Substring] = []
        let japanese = displayWidth(text) > text.count
        for word in text.split(separator: " ") {
            // In Japanese a number keeps its unit on its line: "1.06 秒から", "0.080 s、".
            if japanese, let last = pieces.last, startsWithUnit(word) {
                pieces[pieces.count - 1] = Substring(last + " " + word)
                continue
            }
            pieces += word.allSatisfy(\.isASCII) ? [word] : cut(word, width: width)
        }
        for word in pieces {
            if !current.isEmpty, displayWidth(current) + displayWidth(word) + 1 > width {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }

    /// A word longer than a line in pieces that each fit, cut where a line may begin.
    static func cut(_ word: Substring, width: Int) -> [Substring] {
        var pieces: [Substring] = []
        var start = word.startIndex
        var columns = 0
        var index = word.startIndex
        while index < word.endIndex {
            let character = word[index]
            let columnsHere = displayWidth(String(character))
            if columns + columnsHere > width, index > start, !noLineStart.contains(character) {
                pieces.append(word[start..<index])
                start = index
                columns = 0
            }
            columns += columnsHere
            index = word.index(after: index)
        }
        if start < word.endIndex { pieces.append(word[start...]) }
        return pieces
    }

    /// Whether `word` is a unit that belongs to the number before it ("秒", "s、", "件").
    static func startsWithUnit(_ word: Substring) -> Bool {
        let head = String(word.prefix { !",、。)".contains($0) })
        return ["s", "ms", "B/s", "ms/s"].contains(head)
            || ["秒", "件", "行", "個", "回", "バイト", "フレーム", "ミリ秒"].contains { word.hasPrefix($0) }
    }

    /// What a Japanese line does not begin with (行頭禁則).
    static let noLineStart: Set<Character> = ["、", "。", "，", "．", ")", "」", "』", "）", "ー", "ゃ", "ゅ", "ょ", "っ"]

    /// `xml:lang` on the picture when it speaks Japanese (English pictures stay as they were).
    static var languageAttribute: String { Localized.language == .ja ? " xml:lang=\"ja\"" : "" }

    /// The fonts, with Japanese ones first in line after DejaVu Sans when the picture speaks Japanese.
    static var fontFamily: String {
        Localized.language == .ja
            ? "DejaVu Sans, Hiragino Sans, Noto Sans CJK JP, Noto Sans JP, sans-serif"
            : "DejaVu Sans, Helvetica, Arial, sans-serif"
    }

    /// "Lesson 03: GCD queues: timeline and icons", in the language the program speaks.
    public static func lessonTitle(number: String, title: String) -> String {
        localized(format: "Lesson %1$@: %2$@", number, localized(title))
    }
}

/// Seconds with as many decimals as their size deserves: 12.3, 4.01, 0.016.
private func format(_ seconds: Double) -> String {
    if seconds >= 10 { return String(format: "%.1f", seconds) }
    if seconds >= 0.1 { return String(format: "%.2f", seconds) }
    return String(format: "%.3f", seconds)
}

/// "0.25 s" (in Japanese "0.25 秒"), with `format`'s digits.
private func secondsText(_ seconds: Double) -> String { localized(format: "%@ s", format(seconds)) }

/// Columns `text` takes in a picture: two for a wide (Japanese, Chinese, Korean) character, one for the rest.
func displayWidth<S: StringProtocol>(_ text: S) -> Int {
    text.reduce(0) { total, character in
        guard let scalar = character.unicodeScalars.first?.value else { return total }
        let wide =
            (0x1100...0x115F).contains(scalar) || (0x2E80...0xA4CF).contains(scalar)
            || (0xAC00...0xD7A3).contains(scalar) || (0xF900...0xFAFF).contains(scalar)
            || (0xFE30...0xFE4F).contains(scalar) || (0xFF00...0xFF60).contains(scalar)
            || (0xFFE0...0xFFE6).contains(scalar)
        return total + (wide ? 2 : 1)
    }
}

/// Text safe inside XML (and HTML): & < > " ' escaped.
public func xmlEscaped(_ text: String) -> String {
    var out = ""
    for character in text {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&apos;"
        default: out.append(character)
        }
    }
    return out
}

private func number(_ value: Double) -> String { String(format: "%.1f", value) }

private func text(
    _ content: String, x: Double, y: Double, size: Int, weight: String = "normal", color: String = "#111827",
    anchor: String = "start"
) -> String {
    "<text x=\"\(number(x))\" y=\"\(number(y))\" font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"\(color)\" "
        + "text-anchor=\"\(anchor)\">\(xmlEscaped(content))</text>"
}

private func rect(
    x: Double, y: Double, width: Double, height: Double, fill: String, opacity: Double = 1, title: String? = nil
) -> String {
    let shape =
        "<rect x=\"\(number(x))\" y=\"\(number(y))\" width=\"\(number(width))\" height=\"\(number(height))\" fill=\"\(fill)\""
        + (opacity < 1 ? " fill-opacity=\"\(opacity)\"" : "")
    guard let title else { return shape + "/>" }
    return shape + "><title>\(xmlEscaped(title))</title></rect>"
}

private func line(x1: Double, y1: Double, x2: Double, y2: Double, color: String, dash: String? = nil) -> String {
    "<line x1=\"\(number(x1))\" y1=\"\(number(y1))\" x2=\"\(number(x2))\" y2=\"\(number(y2))\" stroke=\"\(color)\" "
        + "stroke-width=\"2\"" + (dash.map { " stroke-dasharray=\"\($0)\"" } ?? "") + "/>"
}
