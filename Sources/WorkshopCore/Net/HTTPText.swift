import Foundation

/// What another machine sent, made safe to show in a terminal: `HTTPClient` hands over bytes as
/// they came, and whatever of them a person is shown goes through here first.
public enum HTTPText {
    /// The first line of `bytes` with text on it, as plain text: escape sequences and every
    /// other control or invisible formatting character taken out (a server that sends ESC
    /// sequences could set the terminal's title, clear the screen or worse), at most
    /// `maxCharacters` (the last one then "…"). Empty when nothing printable is left. Reads at
    /// most `maxBytes` of `bytes`.
    public static func plainLine(_ bytes: [UInt8], maxCharacters: Int = 160, maxBytes: Int = 4096) -> String {
        let text = String(decoding: bytes.prefix(maxBytes), as: UTF8.self)
            // OSC (ESC ] or its 8-bit form, up to BEL or ST), then CSI (ESC [ or its 8-bit form, up
            // to a final character), then ESC and the one character after it.
            .replacingOccurrences(
                of: #"(\x{1B}\]|\x{9D})[^\x{07}\x{1B}\x{9C}]*(\x{07}|\x{1B}\\|\x{9C})?"#, with: "",
                options: .regularExpression
            )
            .replacingOccurrences(of: #"(\x{1B}\[|\x{9B})[0-?]*[ -/]*[@-~]"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"\x{1B}."#, with: "", options: .regularExpression)
        let line =
            text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .map { String($0.unicodeScalars.filter(isShown)) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty } ?? ""
        guard line.count > maxCharacters else { return line }
        return String(line.prefix(max(0, maxCharacters - 1))) + "…"
    }

    /// Not a control character (C0, DEL, C1) nor an invisible format character (bidi overrides,
    /// zero-width ones): the rest is shown as it is.
    static func isShown(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: false
        default: true
        }
    }
}
