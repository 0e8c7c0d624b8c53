import ExerciseChecks
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
                CheckResult(name: "the check's bodies compress", ja: "チェック用のボディを圧縮できる", passed: false,
                    expected: localized("gzip from the workshop's zlib", ja: "ワークショップの zlib で作った gzip"),
                    got: "\(error)", hint: 1)
            ]
        }
        let chunks = GzipBodies.split(gzip, every: chunkSize)

        // 1: half the chunks in: what has append returned so far?
        let halfway = decodedSoFar(makeDecoder, Array(chunks.prefix(chunks.count / 2)))

        // 2: many splits, each decoded by a new decoder, all put back together.
        var splits: [(String, [[UInt8]])] = [
            (localized("1-byte chunks", ja: "1 バイトずつのチャンク"), GzipBodies.split(gzip, every: 1)),
            (localized("the whole body in one chunk", ja: "ボディ全体を 1 チャンクで"), [gzip]),
        ]
        for seed in UInt64(1)...40 {
            splits.append(
                (localized(format: "random split (seed %d)", ja: "ランダムな分け方（シード %d）", Int(seed)), GzipBodies.randomSplit(gzip, seed: seed)))
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
        recordSplits.append((localized("chunks of 7 bytes", ja: "7 バイトずつのチャンク"), GzipBodies.split(gzip, every: 7)))
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
            CheckResult(name: "append returns what each chunk decodes to", ja: "append がチャンクごとに展開できた分を返す",
                passed: halfway.count > body.count / 4,
                expected: localized(format: "after %1$d of %2$d chunks of %3$d bytes, append has returned more than %4$d of the %5$d bytes", ja: "%3$d バイトのチャンク %2$d 個のうち %1$d 個を渡した時点で、append が %5$d バイトのうち %4$d バイトより多くを返している",
                    chunks.count / 2, chunks.count, chunkSize, body.count / 4, body.count),
                got: halfway.describe, hint: 1),
            CheckResult(name: "any split decodes to the whole body", ja: "どう分けてもボディ全体に展開できる",
                passed: wrongSplit == nil,
                expected: localized(format: "%1$d splits (1-byte chunks, one chunk, random sizes with empty chunks): what append and finish return adds up to the body (%2$d bytes)", ja: "%1$d 通りの分け方（1 バイトずつ、1 チャンク、空のチャンクを含むランダムな大きさ）のどれでも、append と finish が返したものをつなぐとボディ（%2$d バイト）になる",
                    splits.count, body.count),
                got: wrongSplit ?? localized(format: "all %d add up to the body", ja: "%d 通りすべてでボディになりました", splits.count), hint: 2),
            CheckResult(name: "the decoder holds a window, not the body", ja: "デコーダが持つのはウィンドウ分だけで、ボディ全体ではない",
                passed: held.passed,
                expected: localized(format: "a %1$d-byte gzip body in %2$d-byte chunks: the decoder never stores more than %3$d bytes between two chunks", ja: "%1$d バイトの gzip ボディを %2$d バイトずつ渡す間、デコーダが持つのは常に %3$d バイト以下",
                    bigGzip.count, chunkSize * 64, heldLimit),
                got: held.describe, hint: 1),
            CheckResult(name: "the first record is handed over before half the body has arrived", ja: "ボディの半分が届く前に最初のレコードを渡す",
                passed: streamed.pullsBeforeFirstRecord.map { $0 <= chunks.count / 2 } ?? false
                    && streamed.records == lines,
                expected: localized(format: "%1$d chunks: the first record after at most %2$d of them, then all %3$d records", ja: "%1$d チャンクのうち %2$d 個以内で最初のレコードが渡され、最後には %3$d レコードすべてが渡される",
                    chunks.count, chunks.count / 2, lines.count),
                got: streamed.describeFirst(of: chunks.count, wanted: lines), hint: 3),
            CheckResult(name: "the records are the body's lines, in order", ja: "レコードがボディの行と同じ順に並ぶ",
                passed: wrongRecords == nil,
                expected: localized(format: "%1$d splits (1-byte chunks, one chunk, two random ones, 7-byte chunks): the %2$d lines each time", ja: "%1$d 通りの分け方（1 バイトずつ、1 チャンク、ランダム 2 通り、7 バイトずつ）のどれでも %2$d 行がそろう",
                    recordSplits.count, lines.count),
                got: wrongRecords ?? localized(format: "the %d lines each time", ja: "どの分け方でも %d 行がそろいました", lines.count), hint: 3),
            CheckResult(name: "a corrupt body throws and hands over no broken record", ja: "壊れたボディはエラーを投げ、壊れたレコードを渡さない",
                passed: corruptDecode.isFailure && corruptRead.error != nil && corruptRead.onlyWholeRecords(of: lines),
                expected: localized("16 bytes in the middle overwritten: append or finish throws, and the reader throws after whole records only", ja: "真ん中の 16 バイトを上書きしたボディで append か finish がエラーを投げ、リーダーは完全なレコードだけを渡してからエラーを投げる"),
                got: localized(format: "decoder: %1$@; reader: %2$@", ja: "デコーダ: %1$@。リーダー: %2$@", describe(corruptDecode, wanted: body),
                    corruptRead.describe(wanted: lines)), hint: 4),
            CheckResult(name: "a truncated body is an error at finish", ja: "途中で切れたボディは finish でエラーになる",
                passed: cutDecode.isFailure && cutRead.error != nil && cutRead.onlyWholeRecords(of: lines),
                expected: localized("the body cut at 2/3: finish throws (the gzip trailer never came), and the reader throws after whole records only", ja: "2/3 で切れたボディで finish がエラーを投げ（gzip のトレーラーが来ていない）、リーダーは完全なレコードだけを渡してからエラーを投げる"),
                got: localized(format: "decoder: %1$@; reader: %2$@", ja: "デコーダ: %1$@。リーダー: %2$@", describe(cutDecode, wanted: body),
                    cutRead.describe(wanted: lines)),
                hint: 2),
            CheckResult(name: "a cancelled read pulls no more chunks and hands over no more records", ja: "キャンセルされた読み込みは、それ以上チャンクを取りにいかず、レコードも渡さない",
                passed: cancelled.pullsAfterCancel == 0 && cancelled.recordsAfterCancel == 0,
                expected: localized(format: "the task cancelled while it pulls chunk %1$d of %2$d: no chunk pulled after that one, no record handed over after the cancel", ja: "%2$d チャンクのうち %1$d 個目を取りにいったところでタスクをキャンセルする。そのあとはチャンクを取りにいかず、レコードも渡さない",
                    cancelPull + 1, chunks.count),
                got: localized(format: "%1$@ pulled and %2$@ handed over after the cancel", ja: "キャンセルのあとに取りにいったのが%1$@、渡したのが%2$@",
                    localized(count: cancelled.pullsAfterCancel, "%d chunk", "%d chunks", ja: "チャンク %d 個"),
                    localized(count: cancelled.recordsAfterCancel, "%d record", "%d records", ja: "レコード %d 件"))
                    + (cancelled.error.map { localized(format: ", then it threw %@", ja: "。そのあとエラーを投げました:「%@」", $0) }
                        ?? localized(", then it returned", ja: "。そのあと戻りました")),
                hint: 5),
        ]
    }
}
