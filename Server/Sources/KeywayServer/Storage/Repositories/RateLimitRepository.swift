import SQLKit

/// Fixed-window counters: one row a bucket (a hash naming what is counted), with the start of its
/// current window and the hits in it.
struct RateLimitRepository: Sendable {
    let sql: any SQLDatabase

    /// Counts one hit in `bucket` and answers the hits of the current window (this one included)
    /// and when that window started. A window older than `window` milliseconds starts over.
    func hit(bucket: String, now: Int64, window: Int64) async throws -> (hits: Int64, windowStart: Int64) {
        let cutoff = now - window
        guard
            let row = try await sql.raw(
                """
                INSERT INTO rate_limits (bucket, window_start, hits) VALUES (\(bind: bucket), \(bind: now), 1)
                ON CONFLICT (bucket) DO UPDATE SET
                    hits = CASE WHEN rate_limits.window_start <= \(bind: cutoff) THEN 1 ELSE rate_limits.hits + 1 END,
                    window_start = CASE WHEN rate_limits.window_start <= \(bind: cutoff)
                        THEN excluded.window_start ELSE rate_limits.window_start END
                RETURNING hits, window_start
                """
            ).first()
        else { throw StorageError(description: "The rate limit counter returned nothing.") }
        return (try row.decode(column: "hits", as: Int64.self), try row.decode(column: "window_start", as: Int64.self))
    }

    /// The hits of `bucket` in the window that contains `now`, without counting one.
    func current(bucket: String, now: Int64, window: Int64) async throws -> Int64 {
        let row = try await sql.raw(
            "SELECT hits, window_start FROM rate_limits WHERE bucket = \(bind: bucket)"
        ).first()
        guard let row, try row.decode(column: "window_start", as: Int64.self) > now - window else { return 0 }
        return try row.decode(column: "hits", as: Int64.self)
    }

    /// Removes counters whose window ended before `cutoff`.
    func deleteExpired(before cutoff: Int64) async throws {
        try await sql.raw("DELETE FROM rate_limits WHERE window_start < \(bind: cutoff)").run()
    }
}
