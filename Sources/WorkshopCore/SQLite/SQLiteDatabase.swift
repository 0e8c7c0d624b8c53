import CSQLite

/// One value in or out of SQLite.
public enum SQLValue: Equatable, Hashable, Sendable, CustomStringConvertible,
    ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral
{
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(nilLiteral: ()) { self = .null }

    /// As the `sqlite3` shell prints it: NULL as an empty string.
    public var description: String {
        switch self {
        case .null: ""
        case .integer(let v): String(v)
        case .real(let v): String(v)
        case .text(let v): v
        case .blob(let v): "<\(v.count) bytes>"
        }
    }

    public var int: Int64? { if case .integer(let v) = self { v } else { nil } }
    public var string: String? { if case .text(let v) = self { v } else { nil } }
}

/// An error from SQLite, with SQLite's own message (e.g. "UNIQUE constraint failed: tblA.id").
public struct SQLiteError: Error, CustomStringConvertible, Equatable {
    /// The extended result code, e.g. SQLITE_CONSTRAINT_PRIMARYKEY (1555).
    public let code: Int32
    public let message: String
    public let sql: String?

    public var description: String {
        sql.map { "\(message) (SQLite code \(code)) in: \($0)" } ?? "\(message) (SQLite code \(code))"
    }

    /// True for any constraint failure (UNIQUE, PRIMARY KEY, NOT NULL, FOREIGN KEY, CHECK).
    public var isConstraint: Bool { code & 0xff == SQLITE_CONSTRAINT }
}

/// A thin wrapper over one SQLite connection. Every value is bound, never spliced into SQL.
///
/// A connection is not shared between threads here: give each thread or serial queue its own
/// (SQLite's own locking then keeps them apart, and WAL lets readers run beside one writer).
public final class SQLiteDatabase {
    let handle: OpaquePointer
    public let path: String

    /// Opens (creating if needed) the database at `path`; ":memory:" for a private in-memory one.
    public init(path: String) throws {
        // SQLite would open "" as a throw-away temporary file: never what a caller meant.
        guard !path.isEmpty else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "no database path given", sql: nil)
        }
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: status, message: "\(message): \(path)", sql: nil)
        }
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5_000)  // wait up to 5 s for another connection's lock
        handle = db
        self.path = path
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that take no values (schema, pragmas).
    public func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        if status != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    public func prepare(_ sql: String) throws -> SQLiteStatement {
        try SQLiteStatement(database: self, sql: sql)
    }

    /// Runs one statement with bound values; returns the number of rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: [SQLValue] = []) throws -> Int {
        let statement = try prepare(sql)
        try statement.run(values)
        return changes
    }

    /// Runs a query with bound values and returns every row.
    public func query(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try prepare(sql).query(values)
    }

    /// Runs `body` inside BEGIN ... COMMIT; any error rolls the whole transaction back.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// A run-time limit, e.g. `SQLITE_LIMIT_VARIABLE_NUMBER` (bound values per statement) or
    /// `SQLITE_LIMIT_COMPOUND_SELECT` (terms in a compound SELECT).
    public func limit(_ id: Int32) -> Int { Int(sqlite3_limit(handle, id, -1)) }

    /// Lowers (or raises, up to the compile-time maximum) a limit; returns the previous value.
    @discardableResult
    public func setLimit(_ id: Int32, to value: Int) -> Int { Int(sqlite3_limit(handle, id, Int32(value))) }

    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }

    func error(_ status: Int32, sql: String?) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}

/// A prepared statement: compiled once, run many times with new values.
public final class SQLiteStatement {
    private let database: SQLiteDatabase
    private let statement: OpaquePointer
    public let sql: String

    init(database: SQLiteDatabase, sql: String) throws {
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v2(database.handle, sql, -1, &prepared, nil)
        guard status == SQLITE_OK, let prepared else { throw database.error(status, sql: sql) }
        self.database = database
        self.statement = prepared
        self.sql = sql
    }

    deinit { sqlite3_finalize(statement) }

    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(statement)) }

    /// Binds `values` to ?1, ?2, ... (after clearing the previous run).
    public func bindParameters(_ values: [SQLValue]) throws {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        guard values.count == parameterCount else {
            throw SQLiteError(
                code: SQLITE_RANGE, message: "\(values.count) values for \(parameterCount) parameters", sql: sql)
        }
        // SQLITE_TRANSIENT (-1) tells SQLite to copy the bytes now; Swift cannot import the macro.
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let v): status = sqlite3_bind_int64(statement, index, v)
            case .real(let v): status = sqlite3_bind_double(statement, index, v)
            case .text(let v):
                // Bound with its byte length, so text with NUL characters survives whole.
                // A NUL is appended (not counted) so that "" still has a valid pointer: "" is text, not NULL.
                let bytes = v.utf8.map { CChar(bitPattern: $0) } + [0]
                status = bytes.withUnsafeBufferPointer {
                    sqlite3_bind_text(statement, index, $0.baseAddress, Int32(bytes.count - 1), transient)
                }
            case .blob(let v):
                status = v.withUnsafeBytes {
                    sqlite3_bind_blob(statement, index, $0.baseAddress, Int32(v.count), transient)
                }
            }
            guard status == SQLITE_OK else { throw database.error(status, sql: sql) }
        }
    }

    /// Runs a statement that returns no rows.
    public func run(_ values: [SQLValue] = []) throws {
        try bindParameters(values)
        let status = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard status == SQLITE_DONE || status == SQLITE_ROW else { throw database.error(status, sql: sql) }
    }

    /// Runs a query and returns every row.
    public func query(_ values: [SQLValue] = []) throws -> [[SQLValue]] {
        try bindParameters(values)
        defer { sqlite3_reset(statement) }
        var rows: [[SQLValue]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw database.error(status, sql: sql) }
            rows.append((0..<sqlite3_column_count(statement)).map(column))
        }
    }

    public var columnNames: [String] {
        (0..<sqlite3_column_count(statement)).map { String(cString: sqlite3_column_name(statement, $0)) }
    }

    private func column(_ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let text = sqlite3_column_text(statement, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let bytes = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
