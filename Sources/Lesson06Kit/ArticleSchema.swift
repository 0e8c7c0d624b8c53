/// The article's table, written once. Every part of the lesson (the replayed session aside,
/// which shows what the author typed), the bulk save, the 500 limit, the replace hazards and
/// exercise 06's checks create their tables from here.
public enum ArticleSchema {
    /// The article's `tblA`: a text key, a message and a flag.
    public static let table = "create table tblA (id text, message text, flg boolean, primary key (id))"
    /// `table`'s name and key, for the statements built from them (`UpsertBatcher`).
    public static let name = "tblA"
    public static let key = "id"
    /// `table`'s columns, in order.
    public static let columns = ["id", "message", "flg"]
    /// Replies to a row, gone with it (ON DELETE CASCADE): what a REPLACE silently deletes.
    public static let replies =
        "create table reply (rid integer primary key, parent text not null references tblA(id) on delete cascade, body text)"
}
