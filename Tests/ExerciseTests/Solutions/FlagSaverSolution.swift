import WorkshopCore

/// The reference solution of exercise 06 (kept under Tests/ so learners do not trip over it).
enum FlagSaverSolution {
    static func saveFlags(_ flags: [(id: String, flg: Bool)], into database: SQLiteDatabase) throws {
        // Two bound values per pair; read the limit from the connection, never assume it.
        let perStatement = max(1, database.variableLimit / 2)
        try database.transaction {
            for start in stride(from: 0, to: flags.count, by: perStatement) {
                let chunk = flags[start..<min(start + perStatement, flags.count)]
                let sql = "insert into tblA (id, flg) values "
                    + Array(repeating: "(?, ?)", count: chunk.count).joined(separator: ", ")
                    + " on conflict(id) do update set flg = excluded.flg"
                try database.run(sql, chunk.flatMap { [.text($0.id), .integer($0.flg ? 1 : 0)] })
            }
        }
    }
}
