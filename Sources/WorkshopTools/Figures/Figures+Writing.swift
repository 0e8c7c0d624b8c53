import Foundation
import WorkshopCore

extension Figures {
    /// `text` with every figure whose anchor reads a different value written from its capture;
    /// a claim is never written. Returns the text and how many figures were written.
    public static func updated(_ text: String, path: String, library: Library) -> (text: String, written: Int) {
        let found = anchors(in: text, path: path).anchors.filter { $0.kind == .figure }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array(String($0)) }
        var written = 0
        // From the end of each line, so that a shorter or longer figure moves nothing still to write.
        for anchor in found.reversed() {
            let reading = read(anchor, in: library)
            guard reading.problem != nil, reading.value != nil, let quoted = anchor.quoted,
                let figure = reading.written
            else { continue }
            lines[anchor.line - 1].replaceSubrange(quoted.start..<quoted.end, with: Array(figure))
            written += 1
        }
        return (lines.map { String($0) }.joined(separator: "\n"), written)
    }

    /// `value` written like `quoted`: its decimals, its thousands separators.
    public static func format(_ value: Double, like quoted: Quoted) -> String {
        var text = String(format: "%.\(quoted.decimals)f", value)
        if text.hasPrefix("-"), Double(text) == 0 { text.removeFirst() }
        guard quoted.grouped else { return text }
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        let parts = text.split(separator: ".", maxSplits: 1)
        var digits = Array(parts[0])
        var grouped = ""
        while digits.count > 3 {
            grouped = "," + String(digits.suffix(3)) + grouped
            digits.removeLast(3)
        }
        grouped = String(digits) + grouped
        return (negative ? "-" : "") + grouped + (parts.count > 1 ? "." + parts[1] : "")
    }
}
