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
    /// The chunks of the body that barely compresses (the memory check).
    static let bigChunkSize = 16 * 1024
    /// The most a decoder may store between two chunks: room for a buffer or two, not the body.
    static let heldLimit = 256 * 1024
    /// The pull at which the cancel check cancels the reading task.
    static let cancelPull = 10
    /// The seeds of the random splits of "any split".
    static let seeds = UInt64(1)...40
    /// The splits the records check reads: four of "any split" and one of its own.
    static let recordSplitCount = 5

    /// The checks' bodies, seeded (the same on every run), and their gzip, made once: what the
    /// checks want is counted on them.
    static let body = GzipBodies.records()
    static let lines = GzipBodies.lines(of: body)
    static let big = GzipBodies.incompressible()
    static let withEmptyLines = GzipBodies.recordsWithEmptyLines()
    static let emptyLinesLines = GzipBodies.lines(of: withEmptyLines)
    static let compressed = Result { try Compressed() }

    struct Compressed: Sendable {
        var gzip: [UInt8]
        var bigGzip: [UInt8]
        var withEmptyLines: [UInt8]
        /// `body` as two gzip members, each whole.
        var members: [[UInt8]]

        init() throws {
            gzip = try Gzip.compress(body)
            bigGzip = try Gzip.compress(big)
            withEmptyLines = try Gzip.compress(Exercise04aChecks.withEmptyLines)
            members = try GzipBodies.twoMembers(body)
        }
    }

    /// How many chunks of `chunkSize` the gzip body comes in, and how large the big body's gzip is.
    static var chunkCount: Int { GzipBodies.split((try? compressed.get().gzip) ?? [], every: chunkSize).count }
    static var bigGzipBytes: Int { (try? compressed.get().bigGzip.count) ?? 0 }

    // The checks, in the order they report: each declared once, in both languages.
    static let appendReturns = Check(
        "append returns what each chunk decodes to", ja: "append がチャンクごとに展開できた分を返す",
        wanted: String(
            format: "after %1$d of %2$d chunks of %3$d bytes, append has returned more than %4$d of the %5$d bytes",
            chunkCount / 2, chunkCount, chunkSize, body.count / 4, body.count),
        ja: String(
            format: "%3$d バイトのチャンク %2$d 個のうち %1$d 個を渡した時点で、append が %5$d バイトのうち %4$d バイトより多くを返している",
            chunkCount / 2, chunkCount, chunkSize, body.count / 4, body.count),
        hint: 1)
    static let anySplit = Check(
        "any split decodes to the whole body", ja: "どう分けてもボディ全体に展開できる",
        wanted: String(
            format:
                "%1$d splits (1-byte chunks, one chunk, random sizes with empty chunks): what append and finish return adds up to the body (%2$d bytes)",
            seeds.count + 2, body.count),
        ja: String(
            format: "%1$d 通りの分け方（1 バイトずつ、1 チャンク、空のチャンクを含むランダムな大きさ）のどれでも、append と finish が返したものをつなぐとボディ（%2$d バイト）になる",
            seeds.count + 2, body.count),
        hint: 2)
    static let holdsWindow = Check(
        "the decoder holds a window, not the body", ja: "デコーダが持つのはウィンドウ分だけで、ボディ全体ではない",
        wanted: String(
            format:
                "a %1$d-byte gzip body in %2$d-byte chunks: the decoder never stores more than %3$d bytes between two chunks",
            bigGzipBytes, bigChunkSize, heldLimit),
        ja: String(
            format: "%1$d バイトの gzip ボディを %2$d バイトずつ渡す間、デコーダが持つのは常に %3$d バイト以下", bigGzipBytes, bigChunkSize,
            heldLimit),
        hint: 1)
    static let firstRecordEarly = Check(
        "the first record is handed over before half the body has arrived", ja: "ボディの半分が届く前に最初のレコードを渡す",
        wanted: String(
            format: "%1$d chunks: the first record after at most %2$d of them, then all %3$d records", chunkCount,
            chunkCount / 2, lines.count),
        ja: String(
            format: "%1$d チャンクのうち %2$d 個以内で最初のレコードが渡され、最後には %3$d レコードすべてが渡される", chunkCount, chunkCount / 2,
            lines.count),
        hint: 3)
    static let recordsInOrder = Check(
        "the records are the body's lines, in order", ja: "レコードがボディの行と同じ順に並ぶ",
        wanted: String(
            format: "%1$d splits (1-byte chunks, one chunk, two random ones, 7-byte chunks): the %2$d lines each time",
            recordSplitCount, lines.count),
        ja: String(
            format: "%1$d 通りの分け方（1 バイトずつ、1 チャンク、ランダム 2 通り、7 バイトずつ）のどれでも %2$d 行がそろう", recordSplitCount,
            lines.count),
        hint: 3)
    static let emptyLines = Check(
        "an empty line is a record too", ja: "空の行もレコードとして渡す",
        wanted: String(
            format:
                "a body of %1$d lines, %2$d of them empty (the first, the last, two in a row), in 1-byte chunks, 7-byte chunks and one chunk: the %1$d lines each time, an empty record for each empty line",
            emptyLinesLines.count, emptyLinesLines.filter(\.isEmpty).count),
        ja: String(
            format:
                "%1$d 行のうち %2$d 行が空（最初の行、最後の行、2 行続きの空行）のボディを 1 バイトずつ、7 バイトずつ、1 チャンクで渡しても、毎回 %1$d 行がそろい、空の行ごとに空のレコードが渡される",
            emptyLinesLines.count, emptyLinesLines.filter(\.isEmpty).count),
        hint: 3)
    static let corruptThrows = Check(
        "a corrupt body throws and hands over no broken record", ja: "壊れたボディはエラーを投げ、壊れたレコードを渡さない",
        wanted:
            "16 bytes in the middle overwritten: append or finish throws, and the reader throws after whole records only",
        ja: "真ん中の 16 バイトを上書きしたボディで append か finish がエラーを投げ、リーダは完全なレコードだけを渡してからエラーを投げる", hint: 4)
    static let truncatedThrows = Check(
        "a truncated body is an error at finish", ja: "途中で切れたボディは finish でエラーになる",
        wanted:
            "the body cut at 2/3: finish throws (the gzip trailer never came), and the reader throws after whole records only",
        ja: "2/3 で切れたボディで finish がエラーを投げ（gzip のトレーラが来ていない）、リーダは完全なレコードだけを渡してからエラーを投げる", hint: 2)
    static let afterTrailer = Check(
        "a second gzip member is decoded, other bytes after the trailer throw",
        ja: "2 つ目の gzip メンバは展開し、トレーラのあとのほかのバイトはエラーになる",
        wanted: String(
            format:
                "the body as two gzip members (RFC 1952) in one chunk, a chunk each and %1$d-byte chunks: the body (%2$d bytes) and its %3$d records; %4$d bytes of text after the trailer, in its chunk or the next: append or finish throws, and the reader throws after whole records only",
            chunkSize, body.count, lines.count, GzipBodies.afterTrailer.count),
        ja: String(
            format:
                "ボディを 2 つの gzip メンバ（RFC 1952）にして 1 チャンク、メンバごとに 1 チャンク、%1$d バイトずつで渡すと、ボディ（%2$d バイト）と %3$d レコードになる。トレーラのあとに %4$d バイトのテキストが同じチャンクか次のチャンクで来ると、append か finish がエラーを投げ、リーダは完全なレコードだけを渡してからエラーを投げる",
            chunkSize, body.count, lines.count, GzipBodies.afterTrailer.count),
        hint: 2)
    static let cancelStops = Check(
        "a cancelled read pulls no more chunks and hands over no more records",
        ja: "キャンセルされた読み込みは、それ以上チャンクを取りにいかず、レコードも渡さない",
        wanted: String(
            format:
                "the task cancelled while it pulls chunk %1$d of %2$d: no chunk pulled after that one, no record handed over after the cancel",
            cancelPull + 1, chunkCount),
        ja: String(
            format: "%2$d チャンクのうち %1$d 個目を取りにいったところでタスクをキャンセルする。そのあとはチャンクを取りにいかず、レコードも渡さない", cancelPull + 1,
            chunkCount),
        hint: 5)
    public static let all = [
        appendReturns, anySplit, holdsWindow, firstRecordEarly, recordsInOrder, emptyLines, corruptThrows,
        truncatedThrows, afterTrailer, cancelStops,
    ]

    /// Runs every check against the learner's decoder and reader.
    public static func run(decoder makeDecoder: MakeDecoder, read: @escaping Read) async -> [CheckResult] {
        let made: Compressed
        switch compressed {
        case .success(let success): made = success
        case .failure(let error):
            return [
                CheckResult(
                    name: "the check's bodies compress", ja: "チェック用のボディを圧縮できる", passed: false,
                    expected: localized("gzip from the workshop's zlib", ja: "ワークショップの zlib で作った gzip"),
                    got: "\(error)", hint: 1)
            ]
        }
        let gzip = made.gzip
        let chunks = GzipBodies.split(gzip, every: chunkSize)

        // 1: half the chunks in: what has append returned so far?
        let halfway = decodedSoFar(makeDecoder, Array(chunks.prefix(chunks.count / 2)))

        // 2: many splits, each decoded by a new decoder, all put back together.
        var splits: [(String, [[UInt8]])] = [
            (localized("1-byte chunks", ja: "1 バイトずつのチャンク"), GzipBodies.split(gzip, every: 1)),
            (localized("the whole body in one chunk", ja: "ボディ全体を 1 チャンクで"), [gzip]),
        ]
        for seed in seeds {
            splits.append(
                (
                    localized(format: "random split (seed %d)", ja: "ランダムな分け方（シード %d）", Int(seed)),
                    GzipBodies.randomSplit(gzip, seed: seed)
                ))
        }
        var wrongSplit: String?
        for (name, split) in splits where wrongSplit == nil {
            let decoded = decodeAll(makeDecoder, split)
            if decoded != .success(body) { wrongSplit = "\(name): " + describe(decoded, wanted: body) }
        }

        // 3: a body that barely compresses: what does the decoder store between chunks?
        let held = largestHeld(makeDecoder, GzipBodies.split(made.bigGzip, every: bigChunkSize), wanted: big)

        // 4: the reader on the chunked body: when did the first record come?
        let streamed = await readFeed(read, chunks)

        // 5: the reader on other splits: every line, in order.
        var recordSplits = [splits[0], splits[1], splits[2], splits[3]]
        recordSplits.append(
            (localized("chunks of 7 bytes", ja: "7 バイトずつのチャンク"), GzipBodies.split(gzip, every: 7)))
        var wrongRecords: String?
        for (name, split) in recordSplits where wrongRecords == nil {
            let outcome = await readFeed(read, split)
            if outcome.records != lines || outcome.error != nil {
                wrongRecords = "\(name): " + outcome.describe(wanted: lines)
            }
        }

        // 6: a body with empty lines: each one is a record, an empty one.
        let emptySplits: [(String, [[UInt8]])] = [
            (localized("1-byte chunks", ja: "1 バイトずつのチャンク"), GzipBodies.split(made.withEmptyLines, every: 1)),
            (localized("chunks of 7 bytes", ja: "7 バイトずつのチャンク"), GzipBodies.split(made.withEmptyLines, every: 7)),
            (localized("the whole body in one chunk", ja: "ボディ全体を 1 チャンクで"), [made.withEmptyLines]),
        ]
        var wrongEmpty: String?
        for (name, split) in emptySplits where wrongEmpty == nil {
            let outcome = await readFeed(read, split)
            if outcome.records != emptyLinesLines || outcome.error != nil {
                wrongEmpty = "\(name): " + outcome.describeEmpty(wanted: emptyLinesLines)
            }
        }

        // 7: a body broken in the middle.
        let corrupt = GzipBodies.corrupted(gzip)
        let corruptDecode = decodeAll(makeDecoder, GzipBodies.split(corrupt, every: chunkSize))
        let corruptRead = await readFeed(read, GzipBodies.split(corrupt, every: chunkSize))

        // 8: a body cut at two thirds: valid so far, so only the end can tell.
        let cut = Array(gzip.prefix(gzip.count * 2 / 3))
        let cutDecode = decodeAll(makeDecoder, GzipBodies.split(cut, every: chunkSize))
        let cutRead = await readFeed(read, GzipBodies.split(cut, every: chunkSize))

        // 9: what follows a gzip trailer: another member (RFC 1952), decoded; anything else, an error.
        let twoMembers = made.members.reduce([], +)
        let memberSplits: [(String, [[UInt8]])] = [
            (localized("in one chunk", ja: "1 チャンクで"), [twoMembers]),
            (localized("a chunk per member", ja: "メンバごとに 1 チャンク"), made.members),
            (
                localized(format: "chunks of %d bytes", ja: "%d バイトずつのチャンク", chunkSize),
                GzipBodies.split(twoMembers, every: chunkSize)
            ),
        ]
        var wrongMembers: String?
        for (name, split) in memberSplits where wrongMembers == nil {
            let decoded = decodeAll(makeDecoder, split)
            if decoded != .success(body) { wrongMembers = "\(name): " + describe(decoded, wanted: body) }
        }
        let membersRead = await readFeed(read, GzipBodies.split(twoMembers, every: chunkSize))
        let garbageSplits: [(String, [[UInt8]])] = [
            (localized("in the trailer's chunk", ja: "トレーラと同じチャンクで"), [gzip + GzipBodies.afterTrailer]),
            (localized("in a chunk of its own", ja: "次のチャンクで"), chunks + [GzipBodies.afterTrailer]),
        ]
        var garbageDecodes: [(String, GzipDecoded)] = []
        for (name, split) in garbageSplits { garbageDecodes.append((name, decodeAll(makeDecoder, split))) }
        let ignored = garbageDecodes.first { !$0.1.isFailure }
        let garbageRead = await readFeed(read, chunks + [GzipBodies.afterTrailer])
        let membersPassed = wrongMembers == nil && membersRead.records == lines && membersRead.error == nil
        let garbagePassed = ignored == nil && garbageRead.error != nil && garbageRead.onlyWholeRecords(of: lines)

        // 10: the reading task cancelled at a pull in the middle.
        let cancelled = await readFeed(read, chunks, cancelAtPull: cancelPull)

        return [
            appendReturns.result(halfway.count > body.count / 4, got: halfway.describe),
            anySplit.result(
                wrongSplit == nil,
                got: wrongSplit
                    ?? localized(format: "all %d add up to the body", ja: "%d 通りすべてでボディになりました", splits.count)),
            holdsWindow.result(held.passed, got: held.describe),
            firstRecordEarly.result(
                streamed.pullsBeforeFirstRecord.map { $0 <= chunks.count / 2 } ?? false && streamed.records == lines,
                got: streamed.describeFirst(of: chunks.count, wanted: lines)),
            recordsInOrder.result(
                wrongRecords == nil,
                got: wrongRecords
                    ?? localized(format: "the %d lines each time", ja: "どの分け方でも %d 行がそろいました", lines.count)),
            emptyLines.result(
                wrongEmpty == nil,
                got: wrongEmpty
                    ?? localized(
                        format: "the %1$d lines each time, %2$d of them empty",
                        ja: "どの分け方でも %1$d 行（うち空の行 %2$d 行）がそろいました",
                        emptyLinesLines.count, emptyLinesLines.filter(\.isEmpty).count)),
            corruptThrows.result(
                corruptDecode.isFailure && corruptRead.error != nil && corruptRead.onlyWholeRecords(of: lines),
                got: localized(
                    format: "decoder: %1$@; reader: %2$@", ja: "デコーダ: %1$@。リーダ: %2$@",
                    describe(corruptDecode, wanted: body), corruptRead.describe(wanted: lines))),
            truncatedThrows.result(
                cutDecode.isFailure && cutRead.error != nil && cutRead.onlyWholeRecords(of: lines),
                got: localized(
                    format: "decoder: %1$@; reader: %2$@", ja: "デコーダ: %1$@。リーダ: %2$@",
                    describe(cutDecode, wanted: body),
                    cutRead.describe(wanted: lines))),
            afterTrailer.result(
                membersPassed && garbagePassed,
                got: localized(
                    format:
                        "two members: decoder: %1$@; reader: %2$@. Text after the trailer: decoder: %3$@; reader: %4$@",
                    ja: "2 つのメンバ: デコーダ: %1$@。リーダ: %2$@。トレーラのあとのテキスト: デコーダ: %3$@。リーダ: %4$@",
                    wrongMembers ?? describe(.success(body), wanted: body), membersRead.describe(wanted: lines),
                    ignored.map {
                        "\($0.0): "
                            + localized(format: "no error, %@", ja: "エラーなし、%@", describe($0.1, wanted: body))
                    } ?? describe(garbageDecodes[0].1, wanted: body),
                    garbageRead.describe(wanted: lines))),
            cancelStops.result(
                cancelled.pullsAfterCancel == 0 && cancelled.recordsAfterCancel == 0,
                got: localized(
                    format: "%1$@ pulled and %2$@ handed over after the cancel", ja: "キャンセルのあとに取りにいったのが%1$@、渡したのが%2$@",
                    localized(count: cancelled.pullsAfterCancel, "%d chunk", "%d chunks", ja: "チャンク %d 個"),
                    localized(count: cancelled.recordsAfterCancel, "%d record", "%d records", ja: "レコード %d 件"))
                    + (cancelled.error.map {
                        localized(format: ", then it threw %@", ja: "。そのあとエラーを投げました:「%@」", $0)
                    }
                        ?? localized(", then it returned", ja: "。そのあと戻りました"))),
        ]
    }
}
