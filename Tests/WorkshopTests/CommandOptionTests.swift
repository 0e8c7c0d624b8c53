import ExerciseChecks
import Foundation
import Testing
import WorkshopCore
import WorkshopTools

/// Every numeric option of every lesson, of fixture-server and of workshop reads a negative
/// number as its value and answers with a range error naming the flag (exit 64), not
/// "Missing value for '--rows <n>'".
@Suite struct CommandOptionTests {
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

    @Test func aNegativeNumberIsARangeErrorNamingTheFlag() async throws {
        // 35 short processes, as many at a time as the suites' shared slots allow.
        let outcomes = try await withThrowingTaskGroup(of: (Int, Subprocess.Outcome).self) { group in
            for (index, (product, arguments)) in Self.options.enumerated() {
                let path = try #require(Subprocess.builtProduct(product), "\(product) is not built")
                group.addTask { (index, try await Subprocess.run(path, arguments + ["-5"], timeout: 60, in: .shared)) }
            }
            return try await group.reduce(into: [Int: Subprocess.Outcome]()) { $0[$1.0] = $1.1 }
        }
        for (index, (product, arguments)) in Self.options.enumerated() {
            let flag = try #require(arguments.last)
            let outcome = try #require(outcomes[index], "\(product) \(flag)")
            #expect(outcome.status == 64, "\(product) \(flag) -5: \(outcome.stderr)")
            #expect(!outcome.stderr.contains("Missing value"), "\(product) \(flag) -5: \(outcome.stderr)")
            #expect(outcome.stderr.contains("\(flag) must"), "\(product) \(flag) -5: \(outcome.stderr)")
            #expect(outcome.stderr.contains("-5"), "\(product) \(flag): the value as given: \(outcome.stderr)")
        }
    }
}
