import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopTools
import XCTest

/// Every numeric option of every lesson, of fixture-server and of workshop reads a negative
/// number as its value and answers with a range error naming the flag (exit 64), not
/// "Missing value for '--rows <n>'".
final class CommandOptionTests: XCTestCase {
    static let options: [(product: String, arguments: [String])] = [
        ("lesson01", ["--items"]), ("lesson01", ["--width"]), ("lesson01", ["--slow-latency"]),
        ("lesson02", ["--items"]), ("lesson03", ["--rows"]), ("lesson03", ["--image-width"]),
        ("lesson03", ["--visible-rows"]), ("lesson03", ["--latency"]), ("lesson05", ["--products"]),
        ("lesson05", ["--orders"]), ("lesson05", ["--max-age"]), ("lesson06", ["--rows"]),
        ("lesson06", ["--batch-rows"]), ("lesson06", ["--variable-limit"]), ("lesson06", ["--commit-latency"]),
        ("lesson07", ["--width"]), ("lesson07", ["--rows"]), ("lesson07", ["--chunk-size"]), ("lesson07", ["--tasks"]),
        ("fixture-server", ["--port"]), ("fixture-server", ["--latency"]), ("fixture-server", ["--bandwidth"]),
        ("fixture-server", ["--max-age"]), ("fixture-server", ["--fault-rate"]),
        ("fixture-server", ["--max-connections"]), ("fixture-server", ["--read-timeout"]),
        ("fixture-server", ["--self-check", "--clients"]), ("fixture-server", ["--self-check", "--requests"]),
        ("fixture-server", ["--self-check", "--silent"]), ("workshop", ["watch", "--max-seconds"]),
        ("workshop", ["watch", "--interval"]), ("workshop", ["check", "--timeout"]),
        ("workshop", ["verify", "--repeat"]), ("workshop", ["verify", "--busy-cores"]),
        ("workshop", ["verify", "--jobs"]),
    ]

    func testANegativeNumberIsARangeErrorNamingTheFlag() throws {
        // 35 short processes, four at a time (each mostly waits for its process to start).
        let outcomes = Locked<[Int: Result<Subprocess.Outcome, any Error>]>([:])  // filled from 4 threads
        let options = Self.options
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for index in stride(from: lane, to: options.count, by: 4) {
                let (product, arguments) = options[index]
                let outcome = Result {
                    guard let path = Subprocess.builtProduct(product) else { throw CocoaError(.fileNoSuchFile) }
                    return try Subprocess.run(path, arguments + ["-5"], timeout: 60)
                }
                outcomes.withLock { $0[index] = outcome }
            }
        }
        for (index, (product, arguments)) in options.enumerated() {
            let flag = try XCTUnwrap(arguments.last)
            let outcome = try XCTUnwrap(outcomes.current[index], "\(product) \(flag)").get()
            XCTAssertEqual(outcome.status, 64, "\(product) \(flag) -5: \(outcome.stderr)")
            XCTAssertFalse(outcome.stderr.contains("Missing value"), "\(product) \(flag) -5: \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.contains("\(flag) must"), "\(product) \(flag) -5: \(outcome.stderr)")
            XCTAssertTrue(outcome.stderr.contains("-5"), "\(product) \(flag): the value as given: \(outcome.stderr)")
        }
    }
}
