import ExerciseChecks
import Foundation
import WorkshopCore

/// What a decoder threw, in words (so two outcomes compare).
struct GzipCheckError: Error, Equatable {
    var text: String
}

/// What a decoder returned for a whole body: the bytes, or what it threw.
typealias GzipDecoded = Result<[UInt8], GzipCheckError>

extension GzipDecoded {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}

/// What append had returned part way through a body.
struct GzipSoFar {
    var count: Int
    var error: String?

    var describe: String {
        error.map { localized(format: "append threw: %@", ja: "append がエラーを投げました:「%@」", $0) }
            ?? localized(
                format: "append returned %@ so far", ja: "ここまでに append が返したのは %@",
                localized(count: count, "%d byte", "%d bytes", ja: "%d バイト"))
    }
}

/// The most a decoder stored between two chunks of a long body.
struct GzipHeld {
    var largest = 0
    var atChunk = 0
    var chunks = 0
    var outcome: GzipDecoded = .success([])
    var wanted: [UInt8] = []

    var passed: Bool { largest <= Exercise04aChecks.heldLimit && outcome == .success(wanted) }

    var describe: String {
        let held =
            largest > Exercise04aChecks.heldLimit
            ? localized(
                format: "at most %1$d bytes stored (%2$d after chunk %3$d of %4$d)",
                ja: "持っていたのは最大 %1$d バイト（%4$d チャンク中 %3$d 個目のあとで %2$d バイト）", largest, largest, atChunk + 1,
                chunks)
            : localized(format: "at most %d bytes stored", ja: "持っていたのは最大 %d バイト", largest)
        return localized(
            format: "%1$@, and %2$@", ja: "%1$@。結果は%2$@", held, Exercise04aChecks.describe(outcome, wanted: wanted))
    }
}

/// What a reader did with a feed: the feed's log, and how the reader ended.
struct GzipReadOutcome {
    var events: [GzipFeedEvent]
    var error: String?

    var records: [String] {
        events.compactMap {
            if case .record(let text) = $0 { return text }
            return nil
        }
    }

    /// How many chunks had been pulled when the first record came out (nil: no record came).
    var pullsBeforeFirstRecord: Int? {
        guard let first = events.firstIndex(where: { if case .record = $0 { true } else { false } }) else { return nil }
        return events[..<first].filter { if case .pulled = $0 { true } else { false } }.count
    }

    private var afterCancel: ArraySlice<GzipFeedEvent> {
        guard let cancel = events.firstIndex(of: .cancelled) else { return [] }
        return events[(cancel + 1)...]
    }

    /// Chunks pulled after the one that was being pulled when the task was cancelled.
    var pullsAfterCancel: Int { max(0, afterCancel.filter { if case .pulled = $0 { true } else { false } }.count - 1) }

    var recordsAfterCancel: Int { afterCancel.filter { if case .record = $0 { true } else { false } }.count }

    /// Every record handed over is a whole line of the body, in order (none cut, none made up).
    func onlyWholeRecords(of lines: [String]) -> Bool { lines.starts(with: records) }

    func describe(wanted lines: [String]) -> String {
        let got = records
        let firstWrong = got.indices.first { $0 >= lines.count || got[$0] != lines[$0] }
        let handed = localized(count: got.count, "%d record", "%d records", ja: "レコード %d 件")
        var text = localized(format: "%@ handed over", ja: "渡したのは%@", handed)
        if let firstWrong {
            text = localized(
                format: "%1$@ handed over, record %2$d is \"%3$@\" (not a line of the body)",
                ja: "渡したのは%1$@で、%2$d 件目が「%3$@」（ボディの行ではありません）", handed, firstWrong + 1,
                got[firstWrong])
        } else if got.count < lines.count && error == nil {
            text = localized(format: "%1$@ handed over of %2$d", ja: "渡したのは %2$d 件中の%1$@", handed, lines.count)
        }
        return text
            + (error.map { localized(format: ", then it threw: %@", ja: "。そのあとエラーを投げました:「%@」", $0) }
                ?? localized(", and no error", ja: "。エラーはありませんでした"))
    }

    /// For a body with empty lines: how many records came, how many of them empty, for how many lines.
    func describeEmpty(wanted lines: [String]) -> String {
        let handed = localized(count: records.count, "%d record", "%d records", ja: "レコード %d 件")
        return localized(
            format: "%1$@ handed over, %2$d of them empty, for %3$d lines, %4$d of them empty",
            ja: "%3$d 行（うち空の行 %4$d 行）に対して、渡したのは%1$@（うち空のレコード %2$d 件）", handed,
            records.filter(\.isEmpty).count, lines.count, lines.filter(\.isEmpty).count)
            + (error.map { localized(format: ", then it threw: %@", ja: "。そのあとエラーを投げました:「%@」", $0) } ?? "")
    }

    func describeFirst(of chunks: Int, wanted lines: [String]) -> String {
        guard let pulls = pullsBeforeFirstRecord else {
            return localized(format: "no record at all; %@", ja: "レコードが 1 件もありません。%@", describe(wanted: lines))
        }
        return localized(
            format: "the first record after %1$d of %2$d chunks", ja: "最初のレコードは %2$d チャンク中 %1$d 個目のあと", pulls, chunks)
            + (records == lines
                ? localized(format: ", then all %d", ja: "。そのあと %d 件すべて", lines.count)
                : localized(format: "; %@", ja: "。%@", describe(wanted: lines)))
    }
}

extension Exercise04aChecks {
    static func describe(_ decoded: GzipDecoded, wanted body: [UInt8]) -> String {
        switch decoded {
        case .success(let bytes) where bytes == body:
            localized(format: "the body (%d bytes)", ja: "ボディ（%d バイト）", bytes.count)
        case .success(let bytes):
            bytes.count < body.count && body.starts(with: bytes)
                ? localized(
                    format: "%1$d bytes that are not the body (its first %2$d bytes)",
                    ja: "ボディではない %1$d バイト（ボディの最初の %2$d バイト）", bytes.count, bytes.count)
                : localized(format: "%d bytes that are not the body", ja: "ボディではない %d バイト", bytes.count)
        case .failure(let error): localized(format: "threw: %@", ja: "エラーを投げました:「%@」", error.text)
        }
    }

    /// Every chunk through a new decoder, then `finish`: all it returned, or what it threw.
    static func decodeAll(_ makeDecoder: MakeDecoder, _ chunks: [[UInt8]]) -> GzipDecoded {
        do {
            let decoder = try makeDecoder()
            var decoded: [UInt8] = []
            for chunk in chunks { decoded += try decoder.append(chunk) }
            decoded += try decoder.finish()
            return .success(decoded)
        } catch {
            return .failure(GzipCheckError(text: "\(error)"))
        }
    }

    /// The bytes append returned for `chunks`, the start of a body (no `finish`).
    static func decodedSoFar(_ makeDecoder: MakeDecoder, _ chunks: [[UInt8]]) -> GzipSoFar {
        do {
            let decoder = try makeDecoder()
            var count = 0
            for chunk in chunks { count += try decoder.append(chunk).count }
            return GzipSoFar(count: count)
        } catch {
            return GzipSoFar(count: 0, error: "\(error)")
        }
    }

    /// Decodes `chunks` and, after each, adds up the bytes the decoder stores.
    static func largestHeld(_ makeDecoder: MakeDecoder, _ chunks: [[UInt8]], wanted: [UInt8]) -> GzipHeld {
        var held = GzipHeld(chunks: chunks.count, wanted: wanted)
        do {
            let decoder = try makeDecoder()
            var decoded: [UInt8] = []
            decoded.reserveCapacity(wanted.count)
            for (index, chunk) in chunks.enumerated() {
                decoded += try decoder.append(chunk)
                let now = StoredBytes.count(in: decoder.instance)
                if now > held.largest { (held.largest, held.atChunk) = (now, index) }
            }
            decoded += try decoder.finish()
            held.outcome = .success(decoded)
        } catch {
            held.outcome = .failure(GzipCheckError(text: "\(error)"))
        }
        return held
    }

    /// Runs the reader on a feed of `chunks` in a task of its own (so a cancel from the feed
    /// reaches that task, not the checks'), and returns the feed's log.
    static func readFeed(_ read: @escaping Read, _ chunks: [[UInt8]], cancelAtPull: Int? = nil) async
        -> GzipReadOutcome
    {
        let log = GzipFeedLog()
        let feed = GzipChunkFeed(chunks, log: log, cancelAtPull: cancelAtPull)
        let task = Task { try await read(feed) { log.add(.record($0)) } }
        let error: String?
        switch await task.result {
        case .success: error = nil
        case .failure(let thrown): error = "\(thrown)"
        }
        return GzipReadOutcome(events: log.all, error: error)
    }
}

/// The bytes an object stores in its properties: byte arrays, `Data` and strings, however deep,
/// found with `Mirror`. Memory zlib allocates for itself (its 32 KB window) is not seen, and
/// need not be: zlib's is bounded.
enum StoredBytes {
    static func count(in value: Any, depth: Int = 0) -> Int {
        guard depth < 8 else { return 0 }
        switch value {
        case let bytes as [UInt8]: return bytes.count
        case let bytes as ContiguousArray<UInt8>: return bytes.count
        case let bytes as ArraySlice<UInt8>: return bytes.count
        case let data as Data: return data.count
        case let text as String: return text.utf8.count
        default:
            return Mirror(reflecting: value).children.reduce(0) { $0 + count(in: $1.value, depth: depth + 1) }
        }
    }
}
