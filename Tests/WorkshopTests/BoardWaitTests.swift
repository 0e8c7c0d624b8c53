import Foundation
import Testing
import WorkshopCore
import WorkshopServer

@testable import workshop

/// How long a check (and `join`) waits for the room's board, measured where the wait happens:
/// in `BoardSync.post`, the one request a check makes (`BoardSync.flush`) and `join` makes. Timing a whole
/// `workshop check` instead (BoardCommandSlowTests) adds a process, a compile cache and the
/// checks' own run to the figure, and on a busy machine those vary by more than the wait.
@Suite("a check's wait for the room's board")
struct BoardWaitTests {
    static let batch = BoardBatch(code: RoomServer.code, name: "aoi", reports: [])

    /// The fastest of `runs` posts to `port` with the check's timeout: its answer and seconds.
    static func post(to port: UInt16, runs: Int = 3) -> (BoardSync.Answer, Double) {
        let url = URL(string: "http://127.0.0.1:\(port)/board/report")!
        var fastest = (BoardSync.Answer.accepted, Double.infinity)
        for _ in 0..<runs {
            let started = monotonicSeconds()
            let answer = BoardSync.post(batch, to: url, timeout: BoardSync.checkTimeout)
            let seconds = monotonicSeconds() - started
            if seconds < fastest.1 { fastest = (answer, seconds) }
        }
        return fastest
    }

    /// The bounds are ratios on the deadline, not seconds: a post that gave each phase (connect,
    /// send, read) a deadline of its own would take twice it or more, whatever the load.
    @Test("a board that takes the connection and never answers costs the post its deadline, less than twice it")
    func silentBoard() throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let (answer, seconds) = Self.post(to: silent.port)
        // The reason is the deadline: the post waited for it, and gave up there.
        #expect(answer == .unreachable(BoardSync.describe(.timedOut(.firstByte), timeout: BoardSync.checkTimeout)))
        #expect(seconds >= BoardSync.checkTimeout * 0.95, "it gave up after \(seconds) s, before its deadline")
        #expect(seconds < BoardSync.checkTimeout * 2, "a silent board held the check for \(seconds) s")
        print(String(format: "a silent board: %.3f s (timeout %.1f s)", seconds, BoardSync.checkTimeout))
    }

    /// Every hostile board of `HostileBoard`, with a check's deadline and with `join`'s: the
    /// post ends by its deadline whatever the board sends (a 10 MB answer is read no further
    /// than `BoardSync.maxAnswerBytes`, a redirect is not followed).
    @Test(
        "a hostile board costs the post no more than its deadline (less than twice it), a check's and join's",
        arguments: HostileBoard.allCases)
    func hostileBoard(_ kind: HostileBoard) throws {
        let board = try HostileBoard.Running(kind)
        defer { board.stop() }
        let url = try #require(URL(string: board.url)).appendingPathComponent("board/report")
        for timeout in [BoardSync.checkTimeout, Join.timeout] {
            var fastest = Double.infinity
            for _ in 0..<2 {
                let started = monotonicSeconds()
                _ = BoardSync.post(Self.batch, to: url, timeout: timeout)
                fastest = min(fastest, monotonicSeconds() - started)
            }
            #expect(fastest < timeout * 2, "\(kind): the post took \(fastest) s with a \(timeout) s deadline")
            print(String(format: "hostile board %@: %.3f s with a %.1f s deadline", "\(kind)", fastest, timeout))
        }
    }

    @Test("nothing listening is one refused connection: no wait for the deadline, no retry")
    func nothingListening() throws {
        let closed = try SilentListener()
        let port = closed.port
        closed.close()
        let (answer, seconds) = Self.post(to: port)
        // A refusal is the kernel's answer to the connect, so it cannot come from the deadline.
        #expect(answer == .unreachable(BoardSync.describe(.refused, timeout: BoardSync.checkTimeout)))
        #expect(seconds < BoardSync.checkTimeout, "a refused connection took \(seconds) s")
        print(String(format: "nothing listening: %.3f s", seconds))
    }
}
