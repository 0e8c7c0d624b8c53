import WorkshopCore

/// The article's pre-loaded dictionary, kept by an actor: the async variant's "database queue".
///
/// The actor owns the SQLite connection and the dictionary. Callers reach them only through
/// `await`, one call at a time, so neither needs a lock, and the compiler (not a comment)
/// makes sure the connection, which is not Sendable, never leaves the actor. What comes out
/// is a finished value (the `ProductIndex`, the orders), as with the queues.
///
/// An actor still runs one call at a time: it lets another in only at an `await` (it is
/// reentrant there), and these methods have none, so while it parses, a `preload` call would
/// wait its turn. Its SQLite calls block the thread they run on, so it runs on a queue of its
/// own (`QueueExecutor`), not on Swift's shared pool, whose few threads the download needs too.
actor ProductCache {
    /// Its lane in the timeline: the actor's work runs on its own queue, never on main.
    static let lane = "ProductCache (actor)"
    private let executor = QueueExecutor(label: "product-cache")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    let databasePath: String
    let trace: Trace
    /// Opened on first use, by the actor, and never handed out.
    private var table: ProductTable?
    /// Every product by code, once `preload` has run.
    private var index: ProductIndex?

    init(databasePath: String, trace: Trace) {
        self.databasePath = databasePath
        self.trace = trace
    }

    /// Every product into the dictionary: one query.
    func preload() throws -> LaunchJob.Preloaded {
        try trace.measure("pre-load", lane: Self.lane) {
            let table = try openTable()
            let queriesBefore = table.queriesIssued
            let clock = Stopwatch()
            let index = try OrderParsing.preload(table)
            self.index = index
            return LaunchJob.Preloaded(
                index: index, seconds: clock.elapsed, queries: table.queriesIssued - queriesBefore)
        }
    }

    /// Parses the body both ways, as `LaunchJob.parse` does: one query per order, then with the
    /// dictionary (pre-loaded first if nobody has yet). Both must give the same orders.
    func parse(_ body: [UInt8]) throws -> LaunchJob.Parsed {
        let table = try openTable()
        let index = try self.index ?? preload().index
        let queriesBefore = table.queriesIssued
        var clock = Stopwatch()
        let naive = try trace.measure("parse, 1 query per order", lane: Self.lane) {
            try OrderParsing.parseNaive(body, products: table)
        }
        let naiveSeconds = clock.elapsed
        clock = Stopwatch()
        let orders = try trace.measure("parse, dictionary", lane: Self.lane) {
            try OrderParsing.parse(body, index: index)
        }
        let cachedSeconds = clock.elapsed
        guard naive == orders else { throw LessonFailure(localized("the two parses disagree: a bug in the lesson")) }
        return LaunchJob.Parsed(
            orders: orders, naiveSeconds: naiveSeconds, naiveQueries: table.queriesIssued - queriesBefore,
            cachedSeconds: cachedSeconds)
    }

    private func openTable() throws -> ProductTable {
        if let table { return table }
        let opened = try ProductTable(path: databasePath)
        table = opened
        return opened
    }
}
