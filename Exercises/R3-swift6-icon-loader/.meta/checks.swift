import ExerciseChecks
import Foundation
import WorkshopCore

/// The checks of exercise R3 (Exercises/R3-swift6-icon-loader): a 2010-style icon loader made
/// Swift 6 clean without switching the compiler's checking off.
///
/// Five checks, on four kinds of evidence: the learner's source as checked (the two
/// attributes that switch checking off must be gone); the workload's line from a plain run in a
/// child process (every icon fetched once by the driver's own fake network, every caller given
/// its icon); the same workload built with `-sanitize=thread` (no report); and where each
/// callback and each fetch ran, recorded by the callback and the fake network themselves: on
/// the main actor (its executor, the main queue, or the main thread that serves it), and, for
/// a fetch, whether it blocked a thread of Swift's cooperative thread pool (the dispatch queue
/// it ran on, inside a task). No stopwatch: load moves none of these.
public enum ExerciseR3Checks {
    public static let file = "IconLoader.swift"
    public static let icons = ["a", "b", "c", "d", "e", "f", "g", "h"]
    public static let cellsPerIcon = 5

    /// The first half of the workload's line when all went right.
    static var expectedResults: String {
        let callers = icons.count * (cellsPerIcon + 1)
        return "fetches " + icons.map { "\($0)=1" }.joined(separator: " ")
            + "; \(callers) of \(callers) callers got their icon; \(callers) callbacks; 0 requests active"
    }
    static let expectedPlaces = "0 callbacks off the main actor; 0 fetches on the main actor"
    static let expectedPool = "0 fetches blocked a thread of the task pool"
    /// The same three lines as the Japanese check texts say them (the workload itself prints English).
    static var expectedResultsJapanese: String {
        let callers = icons.count * (cellsPerIcon + 1)
        return "アイコン \(icons.joined(separator: "、")) の取得がどれも 1 回、呼び出し元 \(callers) 件のすべてがアイコンを受け取り、"
            + "コールバック \(callers) 回、実行中のリクエスト 0 件"
    }
    static let expectedPlacesJapanese = "メインアクターの外でのコールバック 0 回、メインアクターでの取得 0 件"
    static let expectedPoolJapanese = "協調スレッドプールのスレッドをブロックした取得 0 件"

    // The checks, in the order they report: each declared once, in both languages. The
    // workload's lines are its own words (English); the Japanese says what they count.
    static let attributesCheck = Check(
        "no @unchecked Sendable and no nonisolated(unsafe) in the file",
        ja: "ファイルに @unchecked Sendable も nonisolated(unsafe) もない",
        wanted: "neither attribute in the code of \(file) (comments may name them)",
        ja: "\(file) のコードにどちらの属性もない（コメントの中は構いません）", hint: 1)
    static let resultsCheck = Check(
        "each icon is fetched once and every caller gets it (plain run)",
        ja: "どのアイコンも取得は 1 回で、呼び出し元の全員が受け取る（通常の実行）",
        wanted: expectedResults, ja: expectedResultsJapanese, hint: 4)
    static let raceCheck = Check(
        "no data race under the thread sanitizer", ja: "スレッドサニタイザでデータ競合が出ない",
        wanted: "no ThreadSanitizer warning, and \(expectedResults)",
        ja: "ThreadSanitizer の警告がなく、\(expectedResultsJapanese)", hint: 2)
    static let mainActorCheck = Check(
        "every caller is called back on the main actor, no fetch runs there",
        ja: "どの呼び出し元にもメインアクターでコールバックし、そこでは取得を実行しない",
        wanted: expectedPlaces, ja: expectedPlacesJapanese, hint: 3)
    static let poolCheck = Check(
        "no fetch blocks a thread of the task pool", ja: "取得で協調スレッドプールのスレッドをブロックしない",
        wanted: "\(expectedPool): the blocking fetch waits on a dispatch queue, not in a task",
        ja: "\(expectedPoolJapanese)。ブロックする取得はタスクの中ではなく、ディスパッチキューで待つ", hint: 3)
    public static let all = [attributesCheck, resultsCheck, raceCheck, mainActorCheck, poolCheck]

    /// Runs the checks from the driver: `source` is the learner's file as checked.
    public static func run(source: String?) -> [CheckResult] {
        run(source: source, plain: ExerciseDriver.executable, sanitized: ExerciseDriver.sanitizedBuild)
    }

    /// `plain`: a program that runs the workload when given `--workload`; `sanitized`: the
    /// thread-sanitized build of it (which runs the workload when started), or why there is none.
    public static func run(
        source: String?, plain: String, sanitized: Result<String, ExerciseDriver.BuildFailure>
    ) -> [CheckResult] {
        let (plainRun, sanitizedRun) = WorkloadRun.plainAndSanitized(
            plain: plain, sanitized: sanitized, lineStarting: "fetches ", missing: localized("line", ja: "結果の行"))

        var results = [attributes(in: source)]
        results.append(
            resultsCheck.result(
                plainRun.results == expectedResults, got: plainRun.results.map(quoted) ?? plainRun.problem))
        results.append(raceResult(sanitized, sanitizedRun))
        results.append(
            mainActorCheck.result(
                plainRun.places == expectedPlaces, got: plainRun.places.map(quoted) ?? plainRun.problem))
        results.append(
            poolCheck.result(plainRun.pool == expectedPool, got: plainRun.pool.map(quoted) ?? plainRun.problem))
        return results
    }

    static func raceResult(
        _ sanitized: Result<String, ExerciseDriver.BuildFailure>, _ run: WorkloadRun?
    ) -> CheckResult {
        switch sanitized {
        case .failure(let failure):
            // What it wants here is the build itself, which was not made.
            return raceCheck.result(
                false, wanted: localized("a build with -sanitize=thread", ja: "-sanitize=thread 付きのビルド"),
                got: failure.description)
        case .success:
            let run =
                run
                ?? WorkloadRun(outcome: nil, line: nil, problem: localized("no sanitized run", ja: "サニタイザ付きの実行がありません"))
            let report = TSanReport(run.outcome?.stderr ?? "")
            return raceCheck.result(
                report.races == 0 && run.results == expectedResults,
                got: report.races > 0 ? quoted(report.summary) : (run.results.map(quoted) ?? run.problem))
        }
    }

    // MARK: - The source

    /// The check reads the code, not the comments: the shipped file's comments name both
    /// attributes, and a learner who keeps them has still removed the attributes.
    static func attributes(in source: String?) -> CheckResult {
        guard let source else {
            return attributesCheck.result(
                false,
                got: localized(format: "the check was given no copy of %@ to read", ja: "チェックに %@ の写しが渡されませんでした", file))
        }
        let found = forbiddenLines(in: source)
        return attributesCheck.result(
            found.isEmpty,
            got: found.isEmpty
                ? localized("neither", ja: "どちらもありません")
                : found.prefix(2).map(quoted).joined(separator: "; ")
                    + (found.count > 2 ? localized(format: " (and %d more)", ja: "（ほかに %d 件）", found.count - 2) : ""))
    }

    /// "IconLoader.swift:16: public final class IconLoader: @unchecked Sendable {" for each code
    /// line that switches the compiler's concurrency checking off.
    static func forbiddenLines(in source: String) -> [String] {
        let patterns = [#"@unchecked\s+Sendable"#, #"nonisolated\s*\(\s*unsafe\s*\)"#]
        return codeLines(of: source).enumerated().compactMap { number, code in
            guard patterns.contains(where: { code.range(of: $0, options: .regularExpression) != nil }) else {
                return nil
            }
            let original = source.split(separator: "\n", omittingEmptySubsequences: false)[number]
            return "\(file):\(number + 1): \(original.trimmingCharacters(in: .whitespaces))"
        }
    }

    /// Each line of `source` with its comments (`//`, nested `/* */`) blanked out; string
    /// literals kept, so that "//" inside one is no comment.
    static func codeLines(of source: String) -> [String] {
        var lines: [String] = []
        var depth = 0  // inside this many block comments
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            var code = ""
            var inString = false
            var index = line.startIndex
            while index < line.endIndex {
                let rest = line[index...]
                if depth > 0 {
                    if rest.hasPrefix("*/") { depth -= 1 } else if rest.hasPrefix("/*") { depth += 1 }
                    index = line.index(index, offsetBy: rest.hasPrefix("*/") || rest.hasPrefix("/*") ? 2 : 1)
                    continue
                }
                if !inString, rest.hasPrefix("//") { break }
                if !inString, rest.hasPrefix("/*") {
                    depth += 1
                    index = line.index(index, offsetBy: 2)
                    continue
                }
                if rest.hasPrefix("\\"), inString, line.index(after: index) < line.endIndex {
                    code += rest.prefix(2)
                    index = line.index(index, offsetBy: 2)
                    continue
                }
                if rest.hasPrefix("\"") { inString.toggle() }
                code.append(line[index])
                index = line.index(after: index)
            }
            lines.append(code)
        }
        return lines
    }
}

extension WorkloadRun {
    /// "fetches a=1 ...; 48 of 48 callers got their icon; 48 callbacks; 0 requests active"
    var results: String? { line?.components(separatedBy: " | ").first }
    /// "0 callbacks off the main actor; 0 fetches on the main actor"
    var places: String? {
        guard let parts = line?.components(separatedBy: " | "), parts.count == 3 else { return nil }
        return parts[1]
    }
    /// "0 fetches blocked a thread of the task pool"
    var pool: String? {
        guard let parts = line?.components(separatedBy: " | "), parts.count == 3 else { return nil }
        return parts[2]
    }
}
