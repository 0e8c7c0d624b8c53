import Foundation
import XCTest

/// Drives the built `lesson07` binary, the way a learner or a script would.
final class Lesson07CLITests: XCTestCase {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the binary next to this test bundle, with a timeout.
    static func lesson07(_ arguments: [String], timeout: Double = 60) throws -> Outcome {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let binary = directory.appendingPathComponent("lesson07")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw XCTSkip("lesson07 is not built next to the tests (\(binary.path)); run `swift build` first")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Read while it runs, so a full pipe cannot block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            XCTFail("lesson07 \(arguments) did not finish within \(timeout) s")
        }
        return Outcome(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                       stderr: String(decoding: stderr, as: UTF8.self))
    }

    func testJSONIsOneDocumentWithBothVariants() throws {
        let outcome = try Self.lesson07(["--json", "--rows", "300", "--width", "30"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(document["lesson"] as? String, "07")
        let parameters = try XCTUnwrap(document["parameters"] as? [String: Any])
        XCTAssertEqual(parameters["rows"] as? Int, 300)
        XCTAssertEqual(parameters["width"] as? Int, 30)
        let variants = try XCTUnwrap(document["variants"] as? [[String: Any]])
        XCTAssertEqual(variants.compactMap { $0["name"] as? String }, ["no-thread", "threaded"])
        var contentHeights: [Int] = []
        for variant in variants {
            let metrics = try XCTUnwrap(variant["metrics"] as? [String: Any])
            for key in ["totalSeconds", "firstContentSeconds", "mainThreadMaxStallSeconds", "droppedFrames", "cacheHits"] {
                XCTAssertNotNil(metrics[key], "\(variant["name"] ?? "?") lacks \(key)")
            }
            XCTAssertEqual(metrics["rowsMeasured"] as? Int, 300)
            contentHeights.append(try XCTUnwrap(metrics["contentHeightPoints"] as? Int))
        }
        XCTAssertEqual(contentHeights[0], contentHeights[1], "same heights both ways")
    }

    func testHumanRunDrawsTheArticlesAtTheGivenWidth() throws {
        let outcome = try Self.lesson07(["--rows", "50", "--width", "24", "--svg"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        for line in ["    │秋の田の かりほの庵の │", "    │苫をあらみ 我が衣手は │", "scrolls → 56 wide",
                     "label.width (horizontal) is not fixed by the constraints", "contradict each other",
                     "25, 30, 35, 40, 45, 50 points", "╭──────────╮", #"<path d="M2 0 L10 0 A2 2 0 0 1 12 2"#] {
            XCTAssertTrue(outcome.stdout.contains(line), "output lacks \(line):\n\(outcome.stdout)")
        }
    }

    func testOneVariant() throws {
        let outcome = try Self.lesson07(["--json", "--variant", "threaded", "--rows", "20"])
        XCTAssertEqual(outcome.status, 0, outcome.stderr)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        XCTAssertEqual((document["variants"] as? [[String: Any]])?.count, 1)
    }

    func testBadFlagsExit64AndNameTheFlag() throws {
        for (arguments, flag) in [(["--variant", "sideways"], "--variant"), (["--width", "5"], "--width"),
                                  (["--rows", "0"], "--rows"), (["--chunk-size", "0"], "--chunk-size"),
                                  (["--width", "wide"], "--width"), (["--no-such-flag"], "--no-such-flag")] {
            let outcome = try Self.lesson07(arguments)
            XCTAssertEqual(outcome.status, 64, "\(arguments)")
            XCTAssertTrue(outcome.stderr.contains(flag), "\(arguments): \(outcome.stderr)")
        }
    }

    func testHelpExplainsEveryFlag() throws {
        let outcome = try Self.lesson07(["--help"])
        XCTAssertEqual(outcome.status, 0)
        for flag in ["--variant", "--json", "--width", "--rows", "--chunk-size", "--svg"] {
            XCTAssertTrue(outcome.stdout.contains(flag), "--help lacks \(flag)")
        }
    }
}
