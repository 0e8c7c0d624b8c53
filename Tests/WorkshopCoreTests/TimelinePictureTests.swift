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
}
