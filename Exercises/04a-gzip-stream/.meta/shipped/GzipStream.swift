// Exercise 04a: decode gzip chunk by chunk as the bytes arrive, so the parse starts before the download ends.
// Check it: swift run workshop check 04a
import CZlib
import WorkshopCore

/// Why a gzip body could not be decoded, in zlib's words where zlib has some.
public struct GzipStreamError: Error, CustomStringConvertible {
    public let description: String
}

/// A gzip body decoded as it arrives: `append` returns what each chunk decodes to, `finish` says
/// whether the body was whole. As shipped it is correct but late: it keeps every chunk and
/// decodes in `finish`, so nothing is parsed before the last byte and the body sits in memory.
public final class GzipStream {
    private var received: [UInt8] = []

    public init() throws {}

    /// Decodes one more chunk; returns the bytes it gave (maybe none yet). Throws on corrupt data.
    public func append(_ chunk: [UInt8]) throws -> [UInt8] {
        // TODO(1): inflate this chunk now (a z_stream made in init, windowBits 15 + 16) and return what it gave.
        received += chunk
        return []
    }

    /// The body has ended: what is left to decode. Throws when the gzip data stopped short.
    public func finish() throws -> [UInt8] {
        // TODO(2): once append decodes, how does finish know the body was whole?
        try Gzip.decompress(received)
    }
}

/// Reads records, one per line, from a gzip body that arrives in chunks.
public enum GzipRecords {
    /// Hands each record to `record` as soon as its line is whole. Throws on a broken body.
    public static func read<Chunks: AsyncSequence>(_ chunks: Chunks, record: (String) -> Void) async throws
    where Chunks.Element == [UInt8] {
        let stream = try GzipStream()
        var body: [UInt8] = []
        for try await chunk in chunks {
            // TODO(3): the user may leave while the body arrives: then stop.
            body += try stream.append(chunk)
        }
        body += try stream.finish()
        // TODO(4): a line can go out as soon as its "\n" has arrived, not after the last chunk.
        for line in body.split(separator: UInt8(ascii: "\n")) { record(String(decoding: line, as: UTF8.self)) }
    }
}
