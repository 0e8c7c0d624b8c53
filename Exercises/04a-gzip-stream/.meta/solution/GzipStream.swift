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
public final class GzipStream {
    /// zlib's state. zlib keeps a pointer back to its `z_stream` and checks it on every call, so
    /// the `z_stream` must never move: it gets memory of its own, not a Swift property.
    private let stream: UnsafeMutablePointer<z_stream>
    /// Where inflate writes, reused for every chunk: what this object stores stays this size,
    /// however long the body is.
    private var window = [UInt8](repeating: 0, count: 16 * 1024)
    /// zlib has read a gzip member's trailer (the CRC and length matched) and no byte came after
    /// it: the body is whole (unless another member starts).
    private var ended = false

    public init() throws {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // inflateInit2 is a C macro Swift cannot import; 15 + 16: a gzip header and trailer.
        let status = inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            throw GzipStreamError(description: "inflateInit2 failed (zlib status \(status))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Decodes one more chunk of the body and returns the bytes it gave (maybe none: zlib may
    /// need more input first). Throws when the data is not gzip or is corrupt, and when what
    /// follows a gzip trailer is not another gzip member.
    public func append(_ chunk: [UInt8]) throws -> [UInt8] {
        if chunk.isEmpty { return [] }
        var input = chunk
        var decoded: [UInt8] = []
        try input.withUnsafeMutableBufferPointer { bytes in
            stream.pointee.next_in = bytes.baseAddress
            stream.pointee.avail_in = uInt(bytes.count)
            repeat {
                if ended {
                    // Bytes after a trailer: RFC 1952 allows only another gzip member there. zlib
                    // reads its header as it read the first one's, and throws on anything else
                    // ("incorrect header check"): nothing after the trailer is ever ignored.
                    inflateReset(stream)
                    ended = false
                }
                // One chunk may decode to more than the window holds: go on while it comes back full.
                repeat {
                    let status = window.withUnsafeMutableBufferPointer { out in
                        stream.pointee.next_out = out.baseAddress
                        stream.pointee.avail_out = uInt(out.count)
                        return inflate(stream, Z_NO_FLUSH)
                    }
                    decoded += window[..<(window.count - Int(stream.pointee.avail_out))]
                    switch status {
                    case Z_STREAM_END: ended = true
                    // Z_BUF_ERROR: nothing more to do until the next chunk. Not an error mid-body.
                    case Z_OK, Z_BUF_ERROR: break
                    default: throw GzipStreamError(description: "corrupt gzip data: " + zlibMessage(status))
                    }
                } while stream.pointee.avail_out == 0 && !ended
            } while ended && stream.pointee.avail_in > 0
            // The chunk's memory is gone once this returns: zlib must not keep a pointer into it.
            stream.pointee.next_in = nil
        }
        return decoded
    }

    /// The body has ended. Returns what is left to decode (nothing: `append` decodes all it
    /// gets), and throws if the gzip data stopped before a trailer: a truncated body.
    public func finish() throws -> [UInt8] {
        guard ended else {
            throw GzipStreamError(
                description: "truncated gzip data: the body ended \(stream.pointee.total_in) bytes into a gzip member, "
                    + "before its trailer")
        }
        return []
    }

    private func zlibMessage(_ status: Int32) -> String {
        guard let message = stream.pointee.msg else { return "zlib status \(status)" }
        return "\(String(cString: message)) (zlib status \(status))"
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
        // The record still arriving: the bytes after the last "\n".
        var line: [UInt8] = []
        func handOver(_ bytes: [UInt8]) {
            for byte in bytes {
                if byte == UInt8(ascii: "\n") {
                    record(String(decoding: line, as: UTF8.self))
                    line.removeAll(keepingCapacity: true)
                } else {
                    line.append(byte)
                }
            }
        }
        for try await chunk in chunks {
            // Checked after each pull: the chunk that came with the cancel is dropped unread.
            try Task.checkCancellation()
            handOver(try stream.append(chunk))
        }
        // Throws on a truncated body, so a half line never goes out as a record.
        handOver(try stream.finish())
        // The body is whole: a last line with no "\n" is a whole record too.
        if !line.isEmpty { record(String(decoding: line, as: UTF8.self)) }
    }
}
