// Exercise 04a: decode gzip chunk by chunk as the bytes arrive, so the parse starts before the download ends.
// Check it: swift run workshop check 04a
import CZlib
import WorkshopCore

/// Why a gzip body could not be decoded, in zlib's words where zlib has some.
public struct GzipStreamError: Error, CustomStringConvertible {
    public let description: String
}

/// A gzip body decoded as it arrives: each chunk goes to `append`, which returns what it
/// decodes to right away; `finish` says whether the body was whole. One task uses it at a time.
///
/// As shipped it is correct but late: it keeps every chunk and decodes the whole body in
/// `finish`, so nothing can be parsed before the last byte, and the whole body sits in memory.
public final class GzipStream {
    /// Every chunk so far. TODO(1) replaces it with zlib's state and one reused output buffer.
    private var received: [UInt8] = []

    public init() throws {
        // TODO(1): set up a z_stream for gzip: inflateInit2 is a C macro Swift cannot import, so
        // call inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)).
    }

    /// Decodes one more chunk of the body and returns the bytes it gave (maybe none: zlib may
    /// need more input first). Throws when the data is not gzip or is corrupt.
    public func append(_ chunk: [UInt8]) throws -> [UInt8] {
        // TODO(1): inflate this chunk now (inflate with Z_NO_FLUSH) and return what it decoded.
        received += chunk
        return []
    }

    /// The body has ended. Returns what is left to decode, and throws if the gzip data stopped
    /// before its trailer: a truncated body.
    public func finish() throws -> [UInt8] {
        // TODO(2): once append decodes, how does finish know the body was whole?
        try Gzip.decompress(received)
    }
}

/// Reads records, one per line, from a gzip body that arrives in chunks.
public enum GzipRecords {
    /// Hands each record of the body to `record` as soon as its line is whole, while the rest is
    /// still on the way. Throws on a corrupt or truncated body, after the whole records before
    /// the damage; a cancelled task pulls no more chunks and hands over no more records.
    public static func read<Chunks: AsyncSequence>(_ chunks: Chunks, record: (String) -> Void) async throws
    where Chunks.Element == [UInt8] {
        let stream = try GzipStream()
        var body: [UInt8] = []
        for try await chunk in chunks {
            // TODO(4): the user may leave while the body arrives: then stop.
            body += try stream.append(chunk)
        }
        body += try stream.finish()
        // TODO(3): each line can go out as soon as its "\n" has arrived, not after the last chunk.
        for line in body.split(separator: UInt8(ascii: "\n")) {
            record(String(decoding: line, as: UTF8.self))
        }
    }
}
