// Storage/SQLite/ — embedded SQLite: one writer whose transactions commit in groups, and a pool of readers.
//
// - `DatabaseFiles.swift`: owner-only permissions for the database's folder and files.
// - `GroupCommit.swift`: writes that arrive together commit in one transaction, a savepoint each.
// - `SQLiteDatabase.swift`: the `Database` on SQLite in WAL mode; `ReaderPool`.
// - `SQLiteHandle.swift`: one SQLite connection used synchronously, its statements cached.
// - `SQLiteHandleDatabase.swift`: SQLKit on an `SQLiteHandle`, each statement on the caller's thread.
