import Foundation
import WorkshopCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The pixels of a PNG file: 8-bit RGB or RGBA, not interlaced (what rsvg-convert writes).
/// Just enough of the format to count coloured pixels in a test; zlib does the inflating.
public struct PNGImage: Sendable {
    public let width: Int
    public let height: Int
    /// Row-major RGBA, 4 bytes a pixel.
    public let rgba: [UInt8]

    public struct Unsupported: Error, CustomStringConvertible {
        public let description: String
    }

    public init(contentsOf path: String) throws {
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        guard bytes.count > 8, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Unsupported(description: "\(path) is not a PNG file")
        }
        func be32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 8
        var header: (width: Int, height: Int, depth: UInt8, colour: UInt8, interlace: UInt8)?
        var compressed: [UInt8] = []
        while offset + 8 <= bytes.count {
            let length = be32(offset)
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let data = Array(bytes[offset + 8..<min(bytes.count, offset + 8 + length)])
            if type == "IHDR" {
                header = (be32(offset + 8), be32(offset + 12), data[8], data[9], data[12])
            } else if type == "IDAT" {
                compressed += data
            } else if type == "IEND" {
                break
            }
            offset += 12 + length
        }
        guard let header, header.depth == 8, header.interlace == 0, header.colour == 6 || header.colour == 2 else {
            throw Unsupported(description: "only 8-bit RGB(A), non-interlaced PNGs are read here")
        }
        let channels = header.colour == 6 ? 4 : 3
        let stride = header.width * channels
        let raw = try Gzip.decompress(compressed)
        guard raw.count >= header.height * (stride + 1) else { throw Unsupported(description: "short image data") }
        var pixels = [UInt8](repeating: 0, count: header.width * header.height * 4)
        var previous = [UInt8](repeating: 0, count: stride)
        for row in 0..<header.height {
            let filter = raw[row * (stride + 1)]
            var line = Array(raw[row * (stride + 1) + 1..<(row + 1) * (stride + 1)])
            for index in 0..<stride {
                let left = index >= channels ? Int(line[index - channels]) : 0
                let up = Int(previous[index])
                let upLeft = index >= channels ? Int(previous[index - channels]) : 0
                let value = Int(line[index])
                switch filter {
                case 1: line[index] = UInt8((value + left) & 0xFF)
                case 2: line[index] = UInt8((value + up) & 0xFF)
                case 3: line[index] = UInt8((value + (left + up) / 2) & 0xFF)
                case 4: line[index] = UInt8((value + Self.paeth(left, up, upLeft)) & 0xFF)
                default: break
                }
            }
            for column in 0..<header.width {
                let target = (row * header.width + column) * 4
                for channel in 0..<channels { pixels[target + channel] = line[column * channels + channel] }
                if channels == 3 { pixels[target + 3] = 255 }
            }
            previous = line
        }
        width = header.width
        height = header.height
        rgba = pixels
    }

    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a)
        let pb = abs(p - b)
        let pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// The share (0...1) of pixels inside the box whose colour is within `tolerance` of one of `colors`.
    public func share(
        of colors: [String], inX x: Double, y: Double, width boxWidth: Double, height boxHeight: Double,
        tolerance: Int = 24
    ) -> Double {
        let targets = colors.compactMap(Self.rgb)
        var hits = 0
        var total = 0
        for row in max(0, Int(y))..<min(height, Int(y + boxHeight)) {
            for column in max(0, Int(x))..<min(width, Int(x + boxWidth)) {
                let at = (row * width + column) * 4
                total += 1
                let pixel = (Int(rgba[at]), Int(rgba[at + 1]), Int(rgba[at + 2]))
                if targets.contains(where: {
                    abs($0.0 - pixel.0) <= tolerance && abs($0.1 - pixel.1) <= tolerance
                        && abs($0.2 - pixel.2) <= tolerance
                }) {
                    hits += 1
                }
            }
        }
        return total == 0 ? 0 : Double(hits) / Double(total)
    }

    /// "#1f6fc5" -> (31, 111, 197)
    static func rgb(_ hex: String) -> (Int, Int, Int)? {
        guard hex.hasPrefix("#"), hex.count == 7, let value = Int(hex.dropFirst(), radix: 16) else { return nil }
        return (value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF)
    }
}

/// A real SVG renderer on this machine (librsvg's `rsvg-convert`), or why there is none.
public enum SVGRenderer {
    public static var path: String? {
        ["/usr/bin/rsvg-convert", "/usr/local/bin/rsvg-convert", "/opt/homebrew/bin/rsvg-convert"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Renders `svg` to a PNG file and returns its path.
    public static func render(_ svg: String, name: String) throws -> String {
        guard let renderer = path else { throw Unsupported() }
        let folder = FileManager.default.temporaryDirectory
        let input = folder.appendingPathComponent("\(name)-\(UUID().uuidString).svg").path
        let output = input.replacingOccurrences(of: ".svg", with: ".png")
        try svg.write(toFile: input, atomically: true, encoding: .utf8)
        let outcome = try Subprocess.run(renderer, [input, "-o", output], timeout: 60)
        guard outcome.succeeded else { throw RenderFailed(description: outcome.stderr) }
        return output
    }

    public struct Unsupported: Error, CustomStringConvertible {
        public var description: String {
            "no SVG renderer: rsvg-convert (Debian: apt-get install librsvg2-bin; bash .ci/setup --extras installs it) is not installed"
        }
    }

    public struct RenderFailed: Error, CustomStringConvertible {
        public let description: String
    }
}

/// Whether `text` parses as XML, and the first parse error if not.
public func xmlParseError(_ text: String) -> String? {
    let parser = XMLParser(data: Data(text.utf8))
    return parser.parse() ? nil : (parser.parserError.map { "\($0)" } ?? "not well-formed XML")
}
