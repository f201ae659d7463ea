import Foundation
import KeywayTestSupport
import Logging
import SQLKit
import Testing

@testable import KeywayServer

@Suite("SQLite group commit: writes that arrive together commit together, each rolled back alone")
struct GroupCommitTests {
    struct Refused: Error, Equatable {}

    /// A gate a write waits at until the test opens it.
    final class Gate: Sendable {
        private let opened = Locked(false)
        func open() { opened.withLock { $0 = true } }
        func wait() async throws {
            try await waitUntil("the gate opens") { opened.current }
        }
    }

    func openDatabase() async throws -> SQLiteDatabase {
        let path = TestFiles.directory
            .appendingPathComponent("keyway-group-commit-\(UUID().uuidString)/db.sqlite").path
        let database = try await SQLiteDatabase.open(path: path, logger: Logger(label: "test"))
        try await database.write {
            try await $0.sql.raw("CREATE TABLE scratch (value TEXT NOT NULL UNIQUE)").run()
        }
        return database
    }

    func values(_ database: SQLiteDatabase) async throws -> Set<String> {
        try await database.read { repositories in
            Set(try await repositories.sql.raw("SELECT value FROM scratch").all().map { try $0.decode(column: "value", as: String.self) })
        }
    }

    /// Holds the writer with one write until `count` more are queued behind it, so they are
    /// batched for certain; each of those is `write(index)`.
    func batched<T: Sendable>(
        _ database: SQLiteDatabase, count: Int, write: @escaping @Sendable (Int, Repositories) async throws -> T
    ) async throws -> [Int: Result<T, any Error>] {
        let gate = Gate()
        let before = database.groupCommit.transactions
        return try await withThrowingTaskGroup(of: (Int, Result<T, any Error>)?.self) { group in
            group.addTask {
                try await database.write { _ in try await gate.wait() }
                return nil
            }
            try await waitUntil("the holding write runs") { database.groupCommit.transactions == before + 1 }
            for index in 0..<count {
                group.addTask {
                    do {
                        return (index, .success(try await database.write { try await write(index, $0) }))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            try await waitUntil("every write is queued") { database.groupCommit.queued == count }
            gate.open()
            var results: [Int: Result<T, any Error>] = [:]
            for try await result in group {
                if let (index, outcome) = result { results[index] = outcome }
            }
            // The holding write's transaction, then the queued writes in batches of at most the limit.
            let batches = (count + GroupCommit.batchLimit - 1) / GroupCommit.batchLimit
            #expect(database.groupCommit.transactions == before + 1 + batches)
            return results
        }
    }

    @Test func concurrentWritesShareACommitAndEachIsAnsweredWithItsValue() async throws {
        let database = try await openDatabase()
        let results = try await batched(database, count: 100) { index, repositories in
            try await repositories.sql.raw("INSERT INTO scratch (value) VALUES (\(bind: "v\(index)"))").run()
            return index * 2
        }
        for index in 0..<100 {
            #expect(try results[index]?.get() == index * 2)
        }
        #expect(try await values(database) == Set((0..<100).map { "v\($0)" }))
        await database.shutdown()
    }

    @Test func aWriteThatThrowsRollsBackOnlyItsOwnStatements() async throws {
        let database = try await openDatabase()
        try await database.write { try await $0.sql.raw("INSERT INTO scratch (value) VALUES ('taken')").run() }
        let results = try await batched(database, count: 10) { index, repositories in
            try await repositories.sql.raw("INSERT INTO scratch (value) VALUES (\(bind: "w\(index)"))").run()
            switch index {
            case 3:
                // Its first statement succeeded; the error must undo it.
                throw Refused()
            case 6:
                // A constraint failure in the middle of the batch.
                try await repositories.sql.raw("INSERT INTO scratch (value) VALUES ('taken')").run()
            default:
                break
            }
            return index
        }
        #expect(throws: Refused.self) { try results[3]?.get() }
        #expect(throws: (any Error).self) { try results[6]?.get() }
        for index in [0, 1, 2, 4, 5, 7, 8, 9] {
            #expect(try results[index]?.get() == index)
        }
        let expected = Set([0, 1, 2, 4, 5, 7, 8, 9].map { "w\($0)" } + ["taken"])
        #expect(try await values(database) == expected)
        await database.shutdown()
    }

    @Test func aBatchWhereEveryWriteFailsKeepsNothing() async throws {
        let database = try await openDatabase()
        let results = try await batched(database, count: 3) { index, repositories -> Int in
            try await repositories.sql.raw("INSERT INTO scratch (value) VALUES (\(bind: "x\(index)"))").run()
            throw Refused()
        }
        #expect(results.values.allSatisfy { if case .failure = $0 { true } else { false } })
        #expect(try await values(database).isEmpty)
        // The writer is usable afterwards.
        try await database.write { try await $0.sql.raw("INSERT INTO scratch (value) VALUES ('after')").run() }
        #expect(try await values(database) == ["after"])
        await database.shutdown()
    }
}
