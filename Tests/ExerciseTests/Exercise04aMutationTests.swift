import ExerciseChecks
import Foundation
import WorkshopTools
import XCTest

/// Exercise 04a's checks beyond the two-way proof: each half-done fix fails the check it is
/// named after and passes the others, and a fix other than the reference's passes.
final class Exercise04aMutationTests: XCTestCase {
    override func setUpWithError() throws {
        // Each test compiles and checks a changed copy: the slow tier.
        try XCTSkipUnless(
            ProcessInfo.processInfo.environment["SAKUSAKU_SLOW_TESTS"] == "1",
            "slow tier: set SAKUSAKU_SLOW_TESTS=1 (CI does)")
    }

    static let id = "04a"
    static let appendCheck = "append returns what each chunk decodes to"
    static let splitCheck = "any split decodes to the whole body"
    static let heldCheck = "the decoder holds a window, not the body"
    static let firstRecordCheck = "the first record is handed over before half the body has arrived"
    static let recordsCheck = "the records are the body's lines, in order"
    static let corruptCheck = "a corrupt body throws and hands over no broken record"
    static let truncatedCheck = "a truncated body is an error at finish"
    static let cancelCheck = "a cancelled read pulls no more chunks and hands over no more records"

    /// One inflate call per chunk: a chunk that decodes to more than the window loses the rest.
    func testOneInflatePerChunkIsCaught() throws {
        let once = try changed(
            Self.id, .solution, "            } while stream.pointee.avail_out == 0 && !ended\n",
            "            } while false\n")
        let passed = checked(Self.id, once)
        XCTAssertEqual(passed[Self.splitCheck], false)
        XCTAssertEqual(passed[Self.appendCheck], true)
        XCTAssertEqual(passed[Self.firstRecordCheck], true)
        XCTAssertEqual(passed[Self.cancelCheck], true)
    }

    /// `finish` that only throws when nothing came at all: a body cut short passes as whole.
    func testAFinishThatTrustsAnyInputIsCaught() throws {
        let trusting = try changed(
            Self.id, .solution, "        guard ended else {\n",
            "        guard ended || stream.pointee.total_in > 0 else {\n")
        let passed = checked(Self.id, trusting)
        XCTAssertEqual(passed[Self.truncatedCheck], false)
        XCTAssertEqual(passed[Self.splitCheck], true)
        XCTAssertEqual(passed[Self.corruptCheck], true)
        XCTAssertEqual(passed[Self.firstRecordCheck], true)
    }

    /// The last line handed over before `finish` has said whether the body was whole: a body cut
    /// short leaves half a record behind.
    func testAHalfLineHandedOverBeforeFinishIsCaught() throws {
        let early = try changed(
            Self.id, .solution,
            """
                    // Throws on a truncated body, so a half line never goes out as a record.
                    handOver(try stream.finish())
                    // The body is whole: a last line with no "\\n" is a whole record too.
                    if !line.isEmpty { record(String(decoding: line, as: UTF8.self)) }
            """,
            """
                    if !line.isEmpty { record(String(decoding: line, as: UTF8.self)) }
                    handOver(try stream.finish())
            """)
        let passed = checked(Self.id, early)
        XCTAssertEqual(passed[Self.truncatedCheck], false)
        XCTAssertEqual(passed[Self.recordsCheck], true)
        XCTAssertEqual(passed[Self.corruptCheck], true)
    }

    /// A reader that never looks at cancellation: it reads the whole body for a user who left.
    func testNoCancellationCheckIsCaught() throws {
        let deaf = try changed(Self.id, .solution, "            try Task.checkCancellation()\n", "")
        let passed = checked(Self.id, deaf)
        XCTAssertEqual(passed[Self.cancelCheck], false)
        XCTAssertEqual(passed[Self.firstRecordCheck], true)
        XCTAssertEqual(passed[Self.recordsCheck], true)
    }

    /// Streaming, but keeping everything it decoded as well: the body sits in memory after all.
    func testADecoderThatKeepsItsOutputIsCaught() throws {
        let keeping = try changed(
            Self.id, .solution, "        return decoded\n", "        everything += decoded\n        return decoded\n")
        let withProperty = keeping.replacingOccurrences(
            of: "    private var ended = false\n",
            with: "    private var ended = false\n    private var everything: [UInt8] = []\n")
        let passed = checked(Self.id, withProperty)
        XCTAssertEqual(passed[Self.heldCheck], false)
        XCTAssertEqual(passed[Self.appendCheck], true)
        XCTAssertEqual(passed[Self.splitCheck], true)
    }

    /// Another fix: a fresh output buffer per call (nothing stored but zlib's state), lines cut
    /// out of a pending buffer with `firstIndex(of:)`, and a cancelled read that returns quietly
    /// instead of throwing.
    func testAnotherStreamingFixPassesToo() {
        let other = """
            import CZlib
            import Foundation

            struct InflateFailed: Error, CustomStringConvertible {
                let description: String
            }

            public final class GzipStream {
                private let zs = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
                private var done = false

                public init() throws {
                    zs.initialize(to: z_stream())
                    guard inflateInit2_(zs, 31, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                        zs.deallocate()
                        throw InflateFailed(description: "inflateInit2 failed")
                    }
                }

                deinit {
                    inflateEnd(zs)
                    zs.deallocate()
                }

                public func append(_ chunk: [UInt8]) throws -> [UInt8] {
                    var out: [UInt8] = []
                    var input = chunk
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    try input.withUnsafeMutableBufferPointer { inBytes in
                        zs.pointee.next_in = inBytes.baseAddress
                        zs.pointee.avail_in = uInt(inBytes.count)
                        while zs.pointee.avail_in > 0 && !done {
                            let status = buffer.withUnsafeMutableBufferPointer { outBytes in
                                zs.pointee.next_out = outBytes.baseAddress
                                zs.pointee.avail_out = uInt(outBytes.count)
                                return inflate(zs, Z_NO_FLUSH)
                            }
                            out.append(contentsOf: buffer[..<(buffer.count - Int(zs.pointee.avail_out))])
                            if status == Z_STREAM_END { done = true } else if status != Z_OK && status != Z_BUF_ERROR {
                                throw InflateFailed(description: "bad gzip data (\\(status))")
                            }
                        }
                        // Output zlib still holds for a full buffer: drain it.
                        while !done && zs.pointee.avail_out == 0 {
                            let status = buffer.withUnsafeMutableBufferPointer { outBytes in
                                zs.pointee.next_out = outBytes.baseAddress
                                zs.pointee.avail_out = uInt(outBytes.count)
                                return inflate(zs, Z_NO_FLUSH)
                            }
                            out.append(contentsOf: buffer[..<(buffer.count - Int(zs.pointee.avail_out))])
                            if status == Z_STREAM_END { done = true } else if status != Z_OK && status != Z_BUF_ERROR {
                                throw InflateFailed(description: "bad gzip data (\\(status))")
                            }
                        }
                        zs.pointee.next_in = nil
                    }
                    return out
                }

                public func finish() throws -> [UInt8] {
                    if !done { throw InflateFailed(description: "the gzip data stopped before its end") }
                    return []
                }
            }

            public enum GzipRecords {
                public static func read<Chunks: AsyncSequence>(_ chunks: Chunks, record: (String) -> Void) async throws
                where Chunks.Element == [UInt8] {
                    let stream = try GzipStream()
                    var pending: [UInt8] = []
                    for try await chunk in chunks {
                        if Task.isCancelled { return }
                        pending += try stream.append(chunk)
                        while let newline = pending.firstIndex(of: 10) {
                            record(String(decoding: pending[..<newline], as: UTF8.self))
                            pending.removeSubrange(...newline)
                        }
                    }
                    _ = try stream.finish()
                    if !pending.isEmpty { record(String(decoding: pending, as: UTF8.self)) }
                }
            }
            """
        XCTAssertEqual(Set(checked(Self.id, other).values), [true])
    }
}
