import Foundation
import LessonTestSupport
import Testing

@testable import WorkshopCore
@testable import WorkshopServer

/// `fixture-server --lang ja` and a Japanese locale: its help, its startup lines, its errors and
/// its request log are Japanese. ArgumentParser's own words (OPTIONS, USAGE, "Show help
/// information.", "See '... --help' for more information.") are the parser's and stay English.
@Suite("fixture-server in Japanese")
struct FixtureServerJapaneseTests {
    static let japanese = ["LANG": "ja_JP.UTF-8"]

    /// The lines with an English sentence, less those ArgumentParser writes itself. Commands in
    /// backticks (`swift run workshop join ...`) are code, not sentences: they count as one token.
    static func englishSentences(in output: String) -> [String] {
        let prose = output.replacingOccurrences(of: "`[^`]*`", with: "`…`", options: .regularExpression)
        return EnglishSentences.lines(in: prose).filter {
            !$0.contains("Show help information.") && !$0.contains("for more information.")
        }
    }

    @Test("--lang ja --help and LANG=ja_JP.UTF-8 --help are Japanese, every flag still there")
    func help() throws {
        for (arguments, locale) in [(["--lang", "ja", "--help"], [:]), (["--help"], Self.japanese)] {
            let outcome = try FixtureServerCLITests.run(arguments, locale: locale)
            #expect(outcome.status == 0, "\(arguments) \(locale): \(outcome.stderr)")
            let help = outcome.stdout
            #expect(Self.englishSentences(in: help) == [], "\(arguments) \(locale)")
            for words in [
                "ワークショップのフィクスチャ API を配信し", "会場で使うとき", "ルームコード", "待ち受ける IPv4 アドレス",
                "同時に処理する接続数", "英語か日本語で表示します",
            ] {
                #expect(help.contains(words), "\(arguments) \(locale): no \"\(words)\" in\n\(help)")
            }
            for flag in ["--host", "--port", "--fault-rate", "--max-connections", "--self-check", "--lang"] {
                #expect(help.contains(flag), "\(arguments) \(locale): no \(flag)")
            }
        }
    }

    @Test("--help stays English without --lang ja or a Japanese locale, and --lang en wins over the locale")
    func englishHelp() throws {
        for (arguments, locale) in [(["--help"], [:]), (["--lang", "en", "--help"], Self.japanese)] {
            let help = try FixtureServerCLITests.run(arguments, locale: locale).stdout
            #expect(help.contains("Serve the workshop's fixture API"), "\(arguments) \(locale)")
            #expect(!help.contains("フィクスチャ"), "\(arguments) \(locale)")
        }
    }

    @Test("a bad flag and a port in use are refused in Japanese, exit 64, naming the flag")
    func errors() throws {
        let server = FixtureServer()
        try server.start()
        defer { server.stop() }
        let cases: [([String], String)] = [
            (["--port", "70000"], "--port は 0 から 65535 の間で指定してください"),
            (["--fault", "boom"], "--fault には 500(100〜599 の任意の HTTP ステータス)"),
            (["--clients", "5"], "--clients は --self-check と一緒にだけ使えます"),
            (["--port", "\(server.port)"], "--port \(server.port): このポートは 127.0.0.1 ですでに使われています"),
        ]
        for (arguments, words) in cases {
            for (asked, locale) in [(["--lang", "ja"], [:]), ([], Self.japanese)] {
                let outcome = try FixtureServerCLITests.run(arguments + asked, locale: locale)
                #expect(outcome.status == 64, "\(arguments + asked) \(locale): \(outcome.stderr)")
                #expect(outcome.stderr.contains(words), "\(arguments + asked) \(locale): \(outcome.stderr)")
                #expect(Self.englishSentences(in: outcome.stderr) == [], "\(arguments + asked) \(locale)")
            }
        }
    }

    @Test("--self-check --lang ja reports its load in Japanese")
    func selfCheck() throws {
        let outcome = try FixtureServerCLITests.run(
            ["--self-check", "--clients", "4", "--requests", "10", "--silent", "2", "--lang", "ja"])
        #expect(outcome.status == 0, "\(outcome.stdout)\n\(outcome.stderr)")
        for words in ["セルフチェック: クライアント 4 個", "キープアライブ: リクエスト 40 回、エラー 0 件", "サーバ側の集計: ", "OK: エラーも"] {
            #expect(outcome.stdout.contains(words), "no \"\(words)\" in\n\(outcome.stdout)")
        }
        #expect(EnglishSentences.lines(in: outcome.stdout) == [], "\(outcome.stdout)")
    }

    @Test("a started server under LANG=ja_JP.UTF-8: its first lines, request log and stop line are Japanese")
    func startedServer() async throws {
        let server = try FixtureServerCLITests.start(
            ["--port", "0", "--fault", "500", "--fault-rate", "0.5"], locale: Self.japanese)
        defer { server.signalGroup(SIGKILL) }
        let banner = try await server.line(containing: "試すには: curl", timeout: 30)
        let digits = banner.components(separatedBy: "127.0.0.1:").last?.prefix { $0.isNumber } ?? ""
        let port = try #require(UInt16(digits), "\(banner)")
        let statuses = try (1...2).map { _ in try RawHTTP.get(port: port, path: "/timeline?count=1").status }
        #expect(statuses == [200, 500])
        _ = try await server.line(containing: "GET /timeline -> 500", timeout: 30)
        let end = await server.stop(SIGINT, timeout: 30)
        #expect(end == Subprocess.Child.End(status: 0, signaled: false), "Ctrl-C: \(server.stopFailure)")
        let (stdout, stderr) = (server.output.stdoutText, server.output.stderrText)
        for words in [
            "フィクスチャサーバを http://127.0.0.1:\(port) で起動しました", "障害 500 をリクエストの 0.5 に",
            "GET /timeline -> 200、通信路上", "、障害 500、", "停止します",
        ] {
            #expect(stdout.contains(words), "no \"\(words)\" in\n\(stdout)")
        }
        #expect(EnglishSentences.lines(in: stdout) == [], "\(stdout)")
        #expect(EnglishSentences.lines(in: stderr) == [], "\(stderr)")
    }
}
