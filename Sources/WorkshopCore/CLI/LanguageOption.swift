import ArgumentParser

/// `--lang`, which every program of the workshop accepts (the lessons, `workshop` and
/// `fixture-server`), declared once so that its help says the same everywhere.
///
/// The value itself is read before the parser, by `Language.current`, so that `--help` and the
/// parser's own errors already speak it; the option is declared so that the parser accepts it,
/// checks it (`--lang fr` is an error that lists en and ja) and shows it in `--help`.
public struct LanguageOption: ParsableArguments, Sendable {
    @Option(
        name: .customLong("lang"),
        help: ArgumentHelp(
            localized("Speak English or Japanese (default: Japanese when LC_ALL, LC_MESSAGES or LANG starts with ja)."),
            valueName: "en|ja"))
    public var language: Language?

    public init() {}
}
