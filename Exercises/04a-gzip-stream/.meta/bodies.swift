import ExerciseChecks
import Foundation
import WorkshopCore

/// The bodies exercise 04a's checks decode, and the ways they cut them into chunks. All of it
/// is seeded, so a failure names a split that fails again on the next run.
enum GzipBodies {
    /// SplitMix64: a small generator that gives the same numbers for the same seed everywhere.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E4B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// 1,000 records, one per line, like a list API's answer in a line-per-record format.
    static func records() -> [UInt8] {
        var random = Seeded(state: 4)
        var text = ""
        for id in 100_000..<101_000 {
            text += "\(id)\tuser-\(id)\tfollowers=\(Int.random(in: 0..<5_000, using: &random))\n"
        }
        return Array(text.utf8)
    }

    /// The lines of `body`, without their "\n": the records a reader must hand over. An empty
    /// line is a record too (an empty one); the "\n" that ends the body starts no line.
    static func lines(of body: [UInt8]) -> [String] {
        var lines = body.split(separator: newline, omittingEmptySubsequences: false)
        if body.last == newline { lines.removeLast() }
        return lines.map { String(decoding: $0, as: UTF8.self) }
    }

    static let newline = UInt8(ascii: "\n")

    /// The first 200 records of `records()` with empty lines among them: the first line, one
    /// after every 25th record (so the last line too), and two in a row after the 100th.
    static func recordsWithEmptyLines() -> [UInt8] {
        var bytes = [newline]
        for (index, line) in lines(of: records()).prefix(200).enumerated() {
            bytes += Array(line.utf8) + [newline]
            if index % 25 == 24 { bytes.append(newline) }
            if index == 99 { bytes.append(newline) }
        }
        return bytes
    }

    /// Text a server wrote after the gzip body it sent (a debug footer): not a gzip member.
    static let afterTrailer = Array("<!-- served in 0.012 s -->\n".utf8)

    /// `body` as two gzip members, cut in the middle of a line (RFC 1952: a gzip file is a
    /// series of members; one after the other, decoded, they are the body again).
    static func twoMembers(_ body: [UInt8]) throws -> [[UInt8]] {
        let cut = body.count / 2
        return [try Gzip.compress(Array(body[..<cut])), try Gzip.compress(Array(body[cut...]))]
    }

    /// 1.5 MB of random hex, 64 characters a line: gzip saves about half, so the compressed body
    /// is far larger than any buffer a streaming decoder needs.
    static func incompressible() -> [UInt8] {
        var random = Seeded(state: 7)
        let hex = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24_000 * 65)
        for _ in 0..<24_000 {
            for _ in 0..<8 {
                let word = random.next()
                for shift in stride(from: 0, to: 64, by: 8) { bytes.append(hex[Int((word >> UInt64(shift)) & 0xF)]) }
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    static func split(_ bytes: [UInt8], every size: Int) -> [[UInt8]] {
        stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
    }

    /// Chunks of 0 to 2,048 bytes, mostly small; an empty chunk now and then, as a network may give.
    static func randomSplit(_ bytes: [UInt8], seed: UInt64) -> [[UInt8]] {
        var random = Seeded(state: seed)
        var chunks: [[UInt8]] = []
        var start = 0
        while start < bytes.count {
            let size =
                Bool.random(using: &random)
                ? Int.random(in: 0...64, using: &random) : Int.random(in: 0...2_048, using: &random)
            let end = min(start + size, bytes.count)
            chunks.append(Array(bytes[start..<end]))
            start = end
        }
        return chunks
    }

    /// `gzip` with 16 bytes in the middle overwritten: the deflate data there no longer decodes.
    static func corrupted(_ gzip: [UInt8]) -> [UInt8] {
        var broken = gzip
        let middle = gzip.count / 2
        for index in middle..<middle + 16 { broken[index] = 0xFF }
        return broken
    }
}
