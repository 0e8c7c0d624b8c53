import Foundation
import WorkshopCore

/// The checks of exercise 04a (Exercises/04a-gzip-stream): a gzip body decoded chunk by chunk
/// as it arrives, and its records handed over as soon as each line is whole. The chunks come
/// from `GzipChunkFeed`, which logs every pull and every record in order: that order, not a
/// clock, says whether the parse started before the download ended.
public enum Exercise04aChecks {
    /// The learner's `GzipStream`, as the checks call it. `instance` is the object itself: the
    /// memory check looks at what it stores.
    public struct Decoder {
        public var append: ([UInt8]) throws -> [UInt8]
        public var finish: () throws -> [UInt8]
        public var instance: AnyObject

        public init(
            append: @escaping ([UInt8]) throws -> [UInt8], finish: @escaping () throws -> [UInt8], instance: AnyObject
        ) {
            self.append = append
            self.finish = finish
            self.instance = instance
        }
    }

    public typealias MakeDecoder = @Sendable () throws -> Decoder
    /// The learner's reader: every record of a feed's body, each handed to the callback.
    public typealias Read = @Sendable (GzipChunkFeed, (String) -> Void) async throws -> Void

    static let chunkSize = 256
    /// The most a decoder may store between two chunks: room for a buffer or two, not the body.
    static let heldLimit = 256 * 1024
    /// The pull at which the cancel check cancels the reading task.
    static let cancelPull = 10

    /// Runs every check against the learner's decoder and reader.
    public static func run(decoder makeDecoder: MakeDecoder, read: @escaping Read) async -> [CheckResult] {
        let body = GzipBodies.records()
        let lines = GzipBodies.lines(of: body)
        let gzip: [UInt8]
        let big: [UInt8]
        let bigGzip: [UInt8]
        do {
            gzip = try Gzip.compress(body)
            big = GzipBodies.incompressible()
            bigGzip = try Gzip.compress(big)
        } catch {
            return [
                CheckResult(
                    name: "the check's bodies compress", passed: false, expected: "gzip from the workshop's zlib",
                    got: "\(error)", hint: 1)
            ]
        }
        let chunks = GzipBodies.split(gzip, every: chunkSize)

        // 1: half the chunks in: what has append returned so far?
        let halfway = decodedSoFar(makeDecoder, Array(chunks.prefix(chunks.count / 2)))

        // 2: many splits, each decoded by a new decoder, all put back together.
        var splits: [(String, [[UInt8]])] = [
            ("1-byte chunks", GzipBodies.split(gzip, every: 1)),
            ("the whole body in one chunk", [gzip]),
        ]
        for seed in UInt64(1)...40 {
            splits.append(("random split (seed \(seed))", GzipBodies.randomSplit(gzip, seed: seed)))
        }
        var wrongSplit: String?
        for (name, split) in splits where wrongSplit == nil {
            let decoded = decodeAll(makeDecoder, split)
            if decoded != .success(body) { wrongSplit = "\(name): " + describe(decoded, wanted: body) }
        }

        // 3: a body that barely compresses: what does the decoder store between chunks?
        let held = largestHeld(makeDecoder, GzipBodies.split(bigGzip, every: 16 * 1024), wanted: big)

        // 4: the reader on the chunked body: when did the first record come?
        let streamed = await readFeed(read, chunks)

        // 5: the reader on other splits: every line, in order.
        var recordSplits = [splits[0], splits[1], splits[2], splits[3]]
        recordSplits.append(("chunks of 7 bytes", GzipBodies.split(gzip, every: 7)))
        var wrongRecords: String?
        for (name, split) in recordSplits where wrongRecords == nil {
            let outcome = await readFeed(read, split)
            if outcome.records != lines || outcome.error != nil {
                wrongRecords = "\(name): " + outcome.describe(wanted: lines)
            }
        }

        // 6: a body broken in the middle.
        let corrupt = GzipBodies.corrupted(gzip)
        let corruptDecode = decodeAll(makeDecoder, GzipBodies.split(corrupt, every: chunkSize))
        let corruptRead = await readFeed(read, GzipBodies.split(corrupt, every: chunkSize))

        // 7: a body cut at two thirds: valid so far, so only the end can tell.
        let cut = Array(gzip.prefix(gzip.count * 2 / 3))
        let cutDecode = decodeAll(makeDecoder, GzipBodies.split(cut, every: chunkSize))
        let cutRead = await readFeed(read, GzipBodies.split(cut, every: chunkSize))

        // 8: the reading task cancelled at a pull in the middle.
        let cancelled = await readFeed(read, chunks, cancelAtPull: cancelPull)

        return [
            CheckResult(
                name: "append returns what each chunk decodes to",
                passed: halfway.count > body.count / 4,
                expected: "after \(chunks.count / 2) of \(chunks.count) chunks of \(chunkSize) bytes, append has "
                    + "returned more than \(body.count / 4) of the \(body.count) bytes",
                got: halfway.describe, hint: 1),
            CheckResult(
                name: "any split decodes to the whole body",
                passed: wrongSplit == nil,
                expected: "\(splits.count) splits (1-byte chunks, one chunk, random sizes with empty chunks): what "
                    + "append and finish return adds up to the body (\(body.count) bytes)",
                got: wrongSplit ?? "all \(splits.count) add up to the body", hint: 2),
            CheckResult(
                name: "the decoder holds a window, not the body",
                passed: held.passed,
                expected:
                    "a \(bigGzip.count)-byte gzip body in \(chunkSize * 64)-byte chunks: the decoder never stores "
                    + "more than \(heldLimit) bytes between two chunks",
                got: held.describe, hint: 1),
            CheckResult(
                name: "the first record is handed over before half the body has arrived",
                passed: streamed.pullsBeforeFirstRecord.map { $0 <= chunks.count / 2 } ?? false
                    && streamed.records == lines,
                expected: "\(chunks.count) chunks: the first record after at most \(chunks.count / 2) of them, "
                    + "then all \(lines.count) records",
                got: streamed.describeFirst(of: chunks.count, wanted: lines), hint: 3),
            CheckResult(
                name: "the records are the body's lines, in order",
                passed: wrongRecords == nil,
                expected:
                    "\(recordSplits.count) splits (1-byte chunks, one chunk, two random ones, 7-byte chunks): the "
                    + "\(lines.count) lines each time",
                got: wrongRecords ?? "the \(lines.count) lines each time", hint: 3),
            CheckResult(
                name: "a corrupt body throws and hands over no broken record",
                passed: corruptDecode.isFailure && corruptRead.error != nil && corruptRead.onlyWholeRecords(of: lines),
                expected: "16 bytes in the middle overwritten: append or finish throws, and the reader throws "
                    + "after whole records only",
                got: "decoder: " + describe(corruptDecode, wanted: body) + "; reader: "
                    + corruptRead.describe(wanted: lines), hint: 4),
            CheckResult(
                name: "a truncated body is an error at finish",
                passed: cutDecode.isFailure && cutRead.error != nil && cutRead.onlyWholeRecords(of: lines),
                expected: "the body cut at 2/3: finish throws (the gzip trailer never came), and the reader throws "
                    + "after whole records only",
                got: "decoder: " + describe(cutDecode, wanted: body) + "; reader: " + cutRead.describe(wanted: lines),
                hint: 2),
            CheckResult(
                name: "a cancelled read pulls no more chunks and hands over no more records",
                passed: cancelled.pullsAfterCancel == 0 && cancelled.recordsAfterCancel == 0,
                expected: "the task cancelled while it pulls chunk \(cancelPull + 1) of \(chunks.count): no chunk "
                    + "pulled after that one, no record handed over after the cancel",
                got: "\(counted(cancelled.pullsAfterCancel, "chunk")) pulled and "
                    + "\(counted(cancelled.recordsAfterCancel, "record")) handed over after the cancel"
                    + (cancelled.error.map { ", then it threw \($0)" } ?? ", then it returned"),
                hint: 5),
        ]
    }
}
