import Foundation
import WorkshopCore

/// A check as the board names it: its id, which a learner's report carries, and its names in
/// both languages, which only the board's own catalog gives (`Exercises/*/.meta/exercise.json`,
/// and the checks the workshop itself runs before an exercise's own). The board shows a check
/// by these names in the page's language, never by words a learner sent.
public struct BoardCheck: Codable, Sendable, Equatable {
    /// "fetches-width-icons-at-once": the English name, made an id (`id(for:)`).
    public var id: String
    public var name: String
    public var nameJapanese: String

    public init(name: String, nameJapanese: String) {
        self.id = Self.id(for: name)
        self.name = name
        self.nameJapanese = nameJapanese
    }

    /// The longest id: a check's name is a short line.
    public static let maxIdCharacters = 64

    /// A check's id, made from its English name (a check's identity, as `CheckResult.name`
    /// says): lower-case ASCII letters and digits, every run of anything else one "-", none at
    /// either end, at most `maxIdCharacters`. "fetches `width` icons at once" is
    /// "fetches-width-icons-at-once". Made again from an id, it is the same id, so a name an
    /// older `workshop` sent and an id a newer one sends come to the same check.
    public static func id(for name: String) -> String {
        var id = ""
        var dash = false
        for scalar in name.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                if dash, !id.isEmpty { id += "-" }
                id.unicodeScalars.append(scalar)
                dash = false
            } else {
                dash = true
            }
        }
        return String(id.prefix(maxIdCharacters)).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    }

    /// Whether `text` is an id as `id(for:)` makes them.
    public static func isId(_ text: String) -> Bool {
        !text.isEmpty && text.count <= maxIdCharacters && id(for: text) == text
    }

    /// The checks `workshop check` reports itself, before or instead of an exercise's own (its
    /// runner's, in WorkshopTools, and the checks' library's): the same names in both languages
    /// as it prints them (`BoardCheckCatalogTests` keeps them equal).
    public static let workshopChecks = [
        BoardCheck(name: "the exercise file is there", nameJapanese: "演習のファイルがある"),
        BoardCheck(name: "the checks' library is built", nameJapanese: "チェックのライブラリがビルドされている"),
        BoardCheck(name: "the checks' library builds", nameJapanese: "チェック用ライブラリのビルド"),
        BoardCheck(name: "compiles with the check's driver", nameJapanese: "チェック用ドライバと一緒にコンパイルできる"),
        BoardCheck(name: "the checks start", nameJapanese: "チェックが始まる"),
        BoardCheck(name: "your code finishes", nameJapanese: "あなたのコードが終わる"),
        BoardCheck(name: "your code runs without a crash", nameJapanese: "あなたのコードがクラッシュせずに動く"),
    ]
}
