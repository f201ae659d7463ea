// Storage/PostgreSQL/ — PostgreSQL: a pool of connections, `SERIALIZABLE` writes retried on conflict, deadlines.
//
// - `ClosedConnectionWatch.swift`: stops waiting for work whose connection closed under it.
// - `PostgreSQLDatabase.swift`: the `Database` on PostgreSQL, with deadlines and advisory locks.
// - `RoundTripTally.swift`: the statements (round trips) a request sends, for `keyway_database_round_trips_total`.
