import Dispatch
import WorkshopCore

/// The main thread reading while the writer writes: every frame (16 ms) it counts the rows
/// of each database on its *own* connection, as a table view would fetch what to show.
///
/// In WAL mode a reader sees the last committed transaction, whole. So every count must be
/// one the job can produce at a commit boundary (`SaveJob.consistentCounts`); a count from
/// the middle of a batch would be a torn read, and is counted as one.
final class CountWatcher: @unchecked Sendable {  // @unchecked: confined to the main queue (requireMainQueue)
    private let controller: SaveScreen
    private var readers: [(SaveStrategy, SQLiteDatabase, Set<Int>)] = []
    private var timer: DispatchSourceTimer?
    private(set) var reads = 0
    private(set) var tornReads: [String] = []
    private(set) var readErrors: [String] = []

    init(controller: SaveScreen, databases: [SaveStrategy: String]) throws {
        requireMainQueue()
        self.controller = controller
        for strategy in SaveStrategy.allCases {
            readers.append((strategy, try SQLiteDatabase(path: databases[strategy]!),
                            controller.job.consistentCounts(for: strategy)))
        }
    }

    func start() {
        requireMainQueue()
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.schedule(deadline: .now(), repeating: .milliseconds(16), leeway: .milliseconds(1))
        timer.setEventHandler { [weak self] in self?.readCounts() }
        timer.resume()
        self.timer = timer
    }

    func stop() {
        requireMainQueue()
        timer?.cancel()
        timer = nil
        readCounts()  // one last read: the final state must be consistent too
    }

    private func readCounts() {
        requireMainQueue()
        for (strategy, reader, consistent) in readers {
            do {
                let count = Int(try reader.query("select count(*) from tblA").first?.first?.int ?? -1)
                reads += 1
                controller.countsReadOnMain[strategy] = count
                if !consistent.contains(count) { tornReads.append("\(strategy.rawValue): \(count) rows") }
            } catch {
                readErrors.append("\(error)")
            }
        }
    }
}
