import CZlib

/// gzip compression and decompression with the system zlib. Errors carry zlib's own message.
public enum Gzip {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Compress to the gzip format (RFC 1952) at a zlib level (6 is zlib's and gzip's default).
    public static func compress(_ input: [UInt8], level: Int32 = 6) throws -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16 asks zlib for a gzip header and trailer instead of a zlib one.
        var status = deflateInit2_(
            &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY,
            ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure(description: "deflateInit2: \(message(stream, status))") }
        defer { deflateEnd(&stream) }

        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 32)
        var input = input
        let produced: Int = input.withUnsafeMutableBufferPointer { inBuf in
            output.withUnsafeMutableBufferPointer { outBuf in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = uInt(inBuf.count)
                stream.next_out = outBuf.baseAddress
                stream.avail_out = uInt(outBuf.count)
                status = deflate(&stream, Z_FINISH)
                return outBuf.count - Int(stream.avail_out)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(description: "deflate: \(message(stream, status))") }
        return Array(output.prefix(produced))
    }

    /// Decompress a gzip (or zlib) stream. Corrupt or truncated input throws, never crashes.
    public static func decompress(_ input: [UInt8], limit: Int = 256 << 20) throws -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 32: detect gzip or zlib from the header.
        var status = inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure(description: "inflateInit2: \(message(stream, status))") }
        defer { inflateEnd(&stream) }

        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = input
        try input.withUnsafeMutableBufferPointer { inBuf in
            stream.next_in = inBuf.baseAddress
            stream.avail_in = uInt(inBuf.count)
            repeat {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { outBuf in
                    stream.next_out = outBuf.baseAddress
                    stream.avail_out = uInt(outBuf.count)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return outBuf.count - Int(stream.avail_out)
                }
                if status == Z_BUF_ERROR || (status == Z_OK && stream.avail_in == 0 && stream.avail_out > 0) {
                    // zlib has eaten every byte and still waits for more: the body was cut short.
                    throw Failure(description: "truncated gzip data: the stream ended before its trailer")
                }
                if status != Z_OK && status != Z_STREAM_END {
                    throw Failure(description: "corrupt gzip data: \(message(stream, status))")
                }
                result.append(contentsOf: chunk.prefix(produced))
                if result.count > limit { throw Failure(description: "gzip data expands past \(limit) bytes") }
            } while status != Z_STREAM_END
        }
        return result
    }

    private static func message(_ stream: z_stream, _ status: Int32) -> String {
        if let msg = stream.msg { return "\(String(cString: msg)) (zlib status \(status))" }
        return "zlib status \(status)"
    }
}
