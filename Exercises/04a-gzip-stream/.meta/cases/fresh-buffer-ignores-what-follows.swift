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
                if status == Z_STREAM_END {
                    done = true
                } else if status != Z_OK && status != Z_BUF_ERROR {
                    throw InflateFailed(description: "bad gzip data (\(status))")
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
                if status == Z_STREAM_END {
                    done = true
                } else if status != Z_OK && status != Z_BUF_ERROR {
                    throw InflateFailed(description: "bad gzip data (\(status))")
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
