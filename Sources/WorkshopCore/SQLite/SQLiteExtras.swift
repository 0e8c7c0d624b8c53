import CSQLite

// Additions made for lesson 06, all additive: shell-style row printing, the limits by name,
// whether a transaction is open, and a statement counter for exercise checks.

extension SQLiteDatabase {
    /// Runs a query and returns its rows as the `sqlite3` shell prints them in its default
    /// list mode: columns joined by `|`, NULL as nothing. `100||1` is id 100, NULL, 1.
    public func shellLines(_ sql: String, _ values: [SQLValue] = []) throws -> [String] {
        SQLiteDatabase.shellLines(try query(sql, values))
    }

    /// Rows formatted as the `sqlite3` shell prints them (see `shellLines(_:_:)`).
    public static func shellLines(_ rows: [[SQLValue]]) -> [String] {
        rows.map { row in row.map(\.description).joined(separator: "|") }
    }

    /// Bound values allowed in one statement (`SQLITE_LIMIT_VARIABLE_NUMBER`), read at run
    /// time: 999 in the SQLite of the iOS 4-8 era, 32,766 upstream today, 250,000 in Debian's
    /// build. Setting it lowers the limit for this connection only (it can never be raised
    /// above the value the library was compiled with).
    public var variableLimit: Int {
        get { limit(SQLITE_LIMIT_VARIABLE_NUMBER) }
        set { setLimit(SQLITE_LIMIT_VARIABLE_NUMBER, to: newValue) }
    }

    /// Terms allowed in one compound SELECT (`SQLITE_LIMIT_COMPOUND_SELECT`, 500 by default).
    public var compoundSelectLimit: Int {
        get { limit(SQLITE_LIMIT_COMPOUND_SELECT) }
        set { setLimit(SQLITE_LIMIT_COMPOUND_SELECT, to: newValue) }
    }

    /// The longest SQL text one statement may have, in bytes (`SQLITE_LIMIT_SQL_LENGTH`).
    public var sqlLengthLimit: Int { limit(SQLITE_LIMIT_SQL_LENGTH) }

    /// Whether this connection is inside an explicit transaction (BEGIN without COMMIT yet).
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}

extension SQLiteDatabase {
    /// Runs `body` and counts the SQL statements this connection started meanwhile
    /// (BEGIN and COMMIT included), with SQLite's trace hook. Exercise checks use it to tell
    /// one statement per row from batches.
    public func countingStatements<T>(_ body: () throws -> T) rethrows -> (result: T, statements: Int) {
        let counter = StatementCounter()
        // The hook runs on this thread, inside sqlite3_step called from `body`: no lock needed.
        sqlite3_trace_v2(
            handle, UInt32(SQLITE_TRACE_STMT),
            { _, context, _, _ in
                if let context { Unmanaged<StatementCounter>.fromOpaque(context).takeUnretainedValue().statements += 1 }
                return 0
            }, Unmanaged.passUnretained(counter).toOpaque())
        defer { sqlite3_trace_v2(handle, 0, nil, nil) }
        let result = try withExtendedLifetime(counter) { try body() }
        return (result, counter.statements)
    }
}

/// The count behind `countingStatements`, reached from SQLite's C trace hook.
private final class StatementCounter { var statements = 0 }
