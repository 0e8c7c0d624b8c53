import ExerciseChecks
import Foundation
import WorkshopCore
import WorkshopServer
import WorkshopTools

/// The room's board this learner joined, kept in the progress file, with the reports that
/// could not be sent yet (they go with the next check).
struct BoardMembership: Codable, Equatable {
    struct Pending: Codable, Equatable {
        var report: BoardReport
        /// When the check ran (seconds since 1970): sent as the report's age, not as a time.
        var checkedAt: Double
    }
    var url: String
    var name: String
    var code: String
    var pending: [Pending] = []

    init(url: String, name: String, code: String) {
        self.url = url
        self.name = name
        self.code = code
    }

    init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        url = try values.decode(String.self, forKey: .url)
        name = try values.decode(String.self, forKey: .name)
        code = try values.decode(String.self, forKey: .code)
        pending = try values.decodeIfPresent([Pending].self, forKey: .pending) ?? []
    }

    /// Queues a check's report; the oldest go when more than the board takes at once wait.
    mutating func queue(_ report: BoardReport, checkedAt: Double) {
        var report = report
        report.id = report.id ?? UUID().uuidString
        pending = Array(
            (pending + [Pending(report: report, checkedAt: checkedAt)]).suffix(BoardRules.maxReportsPerBatch))
    }
}

/// Sends the learner's check reports to the room's board. It must never slow or break a
/// check: one request, `checkTimeout` at most, and whatever happens the check goes on.
enum BoardSync {
    /// The longest a check waits for the board (the issue allows 0.5 s more per check).
    static let checkTimeout = 0.3

    /// What one check run reports: the exercise, pass or fail, the first failing check (or the
    /// first not run, when the program stopped) by its id, which the board names from its own
    /// catalog in the room's language, the time spent on the exercise (see
    /// `Progress.Record.secondsSpent`) and the run's worst freeze (when its checks record one).
    /// The check's English name goes too, for a board from before ids: it shows that.
    static func report(
        _ exercise: Exercise, _ runnerReport: ExerciseRunner.Report, secondsSpent: Double
    ) -> BoardReport {
        let failing = runnerReport.passed ? nil : runnerReport.failed.first ?? runnerReport.notRun.first
        let freeze = runnerReport.timeline.flatMap { timeline in
            timeline.stalls.compactMap { $0.count == 2 ? $0[1] - $0[0] : nil }.max()
        }
        return BoardReport(
            exercise: exercise.id, passed: runnerReport.passed,
            check: failing.map { BoardCheck.id(for: $0.name) }.flatMap { $0.isEmpty ? nil : $0 },
            failingCheck: failing.map { String($0.name.prefix(BoardRules.maxCheckCharacters)) },
            secondsSpent: max(0, secondsSpent), worstFreezeSeconds: freeze)
    }

    /// Sends what waits for the board, if the learner joined one, and says in one dim line how
    /// it went. Reports the board did not get stay queued for the next check (or `send`).
    /// Returns whether nothing waits any more.
    @discardableResult
    static func flush(_ workspace: Workspace, timeout: Double = checkTimeout) -> Bool {
        guard let membership = workspace.progress().board, !membership.pending.isEmpty,
            let url = URL(string: membership.url)
        else { return true }
        let now = Date().timeIntervalSince1970
        let sent = membership.pending
        var reports = sent.map { pending in
            var report = pending.report
            report.ageSeconds = max(0, now - pending.checkedAt)
            return report
        }
        reports = Array(reports.suffix(BoardRules.maxReportsPerBatch))
        let batch = BoardBatch(code: membership.code, name: membership.name, reports: reports)
        let answer = post(batch, to: url.appendingPathComponent("board/report"), timeout: timeout)
        let keep: Bool
        switch answer {
        case .accepted:
            keep = false
            Style.line(Style.dim(Text.boardSent))
        case .refused(let status, let reason) where status == 429 || status >= 500:
            keep = true
            Style.line(Style.dim(Text.boardUnreachable(reason)))
        case .refused(_, let reason):
            keep = false  // it would be refused again: say why once, and drop it
            Style.warnLine(Text.boardRefused(reason))
        case .unreachable(let reason):
            keep = true
            Style.line(Style.dim(Text.boardUnreachable(reason)))
        }
        if !keep {
            workspace.updateProgress { progress in
                // Only what was sent: a check that ran meanwhile (another terminal) keeps its report.
                progress.board?.pending.removeAll { sent.contains($0) }
            }
        }
        return !keep
    }

    enum Answer: Equatable {
        case accepted
        case refused(status: Int, reason: String)
        case unreachable(String)
    }

    /// What is read of any answer, head and body together: a board's answer is a few dozen bytes.
    static let maxAnswerBytes = 4096

    /// POSTs `batch` as JSON to `url` (http only), waiting at most `timeout` seconds in all (the
    /// name, the connection, the request, the answer) and reading at most `maxAnswerBytes` of
    /// the answer, with no redirect followed and no proxy: whatever is at that address on the
    /// room's network, a board or not. A refusal's reason is one line of plain text
    /// (`HTTPText.plainLine`).
    ///
    /// Why not URLSession: it reads a whole answer before it hands it over (a board answering
    /// 10 MB held `join` for 11-25 s), follows redirects (on Linux, a server that redirects to
    /// itself traps a delegate session), takes the proxy of `http_proxy` for an address on the
    /// room's network, and takes a moment to set up (a check waits for the board 0.3 s at most).
    static func post(_ batch: BoardBatch, to url: URL, timeout: Double) -> Answer {
        guard let body = try? JSONEncoder().encode(batch) else {
            return .unreachable(localized("could not encode the report"))
        }
        guard let host = url.host, !host.isEmpty else { return .unreachable(describe(.unknownHost, timeout: timeout)) }
        let answer: HTTPClient.Answer
        do {
            answer = try HTTPClient.request(
                "POST", host: host, port: UInt16(clamping: url.port ?? 80), target: url.path.isEmpty ? "/" : url.path,
                headers: [("Content-Type", "application/json")], body: Array(body),
                limits: .within(timeout, maxAnswerBytes: maxAnswerBytes))
        } catch {
            return .unreachable(describe(error, timeout: timeout))
        }
        switch answer.status {
        case 200:
            return .accepted
        case 300..<400:
            // Never followed: a board answers, it does not send anyone elsewhere.
            return .unreachable(localized(format: "a redirect (HTTP %d), not followed", answer.status))
        default:
            let reason = HTTPText.plainLine(answer.body)
            return .refused(status: answer.status, reason: reason.isEmpty ? "HTTP \(answer.status)" : reason)
        }
    }

    /// Why there is no answer, in a few words.
    static func describe(_ failure: HTTPClient.Failure, timeout: Double) -> String {
        switch failure {
        case .timedOut, .incomplete: Text.boardNoAnswer(timeout)
        case .refused: localized("connection refused")
        case .unknownHost: localized("unknown host")
        case .network(let words): words
        case .notHTTP: localized("the answer is not HTTP")
        case .closed: localized("the connection was closed without an answer")
        }
    }
}
