import Lesson03Kit
import LessonTestSupport
import WorkshopCore
import XCTest

/// The timeline picture of a real run, checked as a picture: it parses as XML, and rendered by
/// a real SVG renderer, the no-thread main lane is mostly busy and the threaded and async ones mostly idle.
final class Lesson03PictureSlowTests: XCTestCase {
    func testTheMainLaneIsBusyWithoutThreadsAndIdleWithQueuesOrTasks() throws {
        let server = try TestServer(latency: 0.12)
        defer { server.stop() }
        let endpoint = server.endpoint
        var settings = TimelineRun.Settings()
        settings.rows = 12
        settings.timeoutSeconds = 30
        let runs = MainActor.assumeIsolated {
            [Variant.noThread, .threaded, .async].map {
                TimelineRun.perform($0, endpoint: endpoint, settings: settings)
            }
        }
        let picture = TimelinePicture(
            title: "Lesson 03", subtitle: "12 rows", runs: runs.map(\.pictureRun), caption: "a caption & <escapes>")
        XCTAssertNil(xmlParseError(picture.svg), "the SVG is not well-formed XML")
        XCTAssertFalse(picture.svg.contains("<script"), "no scripts")
        XCTAssertFalse(picture.svg.contains("href"), "no links or external images")

        let png: String
        do { png = try SVGRenderer.render(picture.svg, name: "lesson03") } catch let missing as SVGRenderer.Unsupported
        {
            throw XCTSkip("\(missing)")
        }
        let image = try PNGImage(contentsOf: png)
        XCTAssertEqual(image.width, Int(picture.width))
        let busyColors = TimelinePicture.Kind.allCases.map(\.color)
        func busyShare(_ variant: String) throws -> Double {
            let lane = try XCTUnwrap(picture.mainLanes[variant], "no main lane for \(variant)")
            return image.share(of: busyColors, inX: lane.x, y: lane.y, width: lane.width, height: lane.height)
        }
        let plain = try busyShare("no-thread")
        XCTAssertGreaterThan(plain, 0.6, "no-thread main lane busy share \(plain)")
        for variant in ["threaded", "async"] {
            let moved = try busyShare(variant)
            XCTAssertLessThan(moved, 0.25, "\(variant) main lane busy share \(moved)")
            XCTAssertGreaterThan(plain, 4 * moved, "busy share no-thread \(plain) vs \(variant) \(moved)")
        }
    }
}
