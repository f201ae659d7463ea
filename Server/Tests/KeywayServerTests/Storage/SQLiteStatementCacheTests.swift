import Foundation
import KeywayTestSupport
import Testing

@testable import KeywayServer

@Suite("SQLite: cached statements after a schema change")
struct SQLiteStatementCacheTests {
    /// A `SELECT *` prepared before a migration added a column is prepared again by SQLite when
    /// it runs next; its rows must then carry the new column, by name.
    @Test func aCachedSelectSeesAColumnAddedByAnotherConnection() throws {
        let folder = TestFiles.directory.appendingPathComponent("keyway-statements-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db.sqlite").path
        let reader = try SQLiteHandle(path: path)
        let writer = try SQLiteHandle(path: path)
        try writer.execute("CREATE TABLE things (id TEXT PRIMARY KEY)")
        try writer.execute("INSERT INTO things (id) VALUES ('a')")
        let before = try reader.execute("SELECT * FROM things")
        #expect(before.first?.columns == ["id"])
        try writer.execute("ALTER TABLE things ADD COLUMN size BIGINT NOT NULL DEFAULT 7")
        let after = try reader.execute("SELECT * FROM things")
        #expect(after.first?.columns == ["id", "size"])
        #expect(after.first?.value("size") == .integer(7))
    }
}
