import Foundation
import Testing
import WorkshopCore

/// The lessons' pictures are read from a projector at the back of a room, by colour-blind eyes
/// and by screen readers: every colour has 3:1 contrast with the white background (WCAG's
/// minimum for graphics), the colours differ from each other, and the SVG has a title and a
/// description in words.
struct TimelinePictureTests {
    /// WCAG 2 relative luminance of "#rrggbb".
    static func luminance(_ hex: String) -> Double {
        let value = Int(hex.dropFirst(), radix: 16) ?? 0
        let channels = [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff].map { Double($0) / 255 }
        let linear = channels.map { $0 <= 0.03928 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    static func contrast(_ a: String, _ b: String) -> Double {
        let (l1, l2) = (luminance(a), luminance(b))
        return (max(l1, l2) + 0.05) / (min(l1, l2) + 0.05)
    }

    @Test func everyColourStandsOutFromTheWhiteBackground() {
        let colours =
            TimelinePicture.Kind.allCases.map { ($0.rawValue, $0.color) } + [("freeze", TimelinePicture.freezeColor)]
        for (name, colour) in colours {
            #expect(Self.contrast(colour, "#ffffff") >= 3, "\(name) \(colour): \(Self.contrast(colour, "#ffffff")):1")
        }
    }

    @Test func theOldOrangeWasTooPaleAndTheCheckSaysSo() {
        // The palette before: its orange had 2.9:1 on white. The check above would have caught it.
        #expect(Self.contrast("#e07b00", "#ffffff") < 3)
    }

    @Test func noTwoColoursAreTheSame() {
        let colours = TimelinePicture.Kind.allCases.map(\.color) + [TimelinePicture.freezeColor]
        #expect(Set(colours).count == colours.count)
    }

    @Test func theSVGHasATitleAndADescriptionInWords() {
        let run = TimelinePicture.Run(
            name: "threaded", spans: [], stalls: [], firstContentSeconds: 0.1, doneSeconds: 1.2, droppedFrames: 0)
        let picture = TimelinePicture(
            title: "Lesson 03 <GCD>", subtitle: "a subtitle", runs: [run], caption: "a caption")
        #expect(picture.svg.contains("<title id=\"picture-title\">Lesson 03 &lt;GCD&gt;</title>"))
        #expect(picture.svg.contains("<desc id=\"picture-desc\">a subtitle threaded: done after"))
        #expect(picture.svg.contains("a caption</desc>"))
        #expect(picture.svg.contains("role=\"img\""))
    }

    @Test func everyRunsWorstFreezeIsSaidInWordsHoweverShort() {
        // A threaded run with only short freezes, beside an async run with a long one.
        let short = [Stall(start: 0.2, end: 0.23), Stall(start: 0.5, end: 0.545)]
        let main = [Trace.Span(lane: "main", name: "draw", start: 0, end: 1)]
        let threaded = TimelinePicture.Run(
            name: "threaded", spans: main, stalls: short, firstContentSeconds: 0.1, doneSeconds: 1, droppedFrames: 3)
        let async = TimelinePicture.Run(
            name: "async", spans: main, stalls: [Stall(start: 0.3, end: 0.42)], firstContentSeconds: 0.1,
            doneSeconds: 1, droppedFrames: 6)
        let svg = TimelinePicture(title: "t", subtitle: "s", runs: [threaded, async], caption: "c").svg
        #expect(svg.contains("frozen 0.045 s, 1 frame dropped"), "the threaded run's worst freeze, labelled")
        #expect(!svg.contains("frozen 0.030 s"), "a shorter one than the worst stays a tick")
        #expect(svg.contains("frozen 0.12 s"), "the async run's freeze, labelled as before")
    }
}
