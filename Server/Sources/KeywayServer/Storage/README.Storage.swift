// Storage/ — the database: the `Database` seam, SQLite and PostgreSQL, migrations, the shared records and repositories.
//
// - `Database.swift`: the `Database` protocol, `Repositories`, and the failures answered `503`.
// - `DatabaseCopy.swift`: every row of a SQLite database copied into an empty PostgreSQL one.
// - `DatabaseObserver.swift`: what a database tells the metrics: connection waits, leases, retries.
// - `MaintenanceService.swift`: the sweep, once a minute, of expired rows and stale guests.
// - `SecretsAtRest.swift`: secrets sealed and the master key checked at start; rewrapped to a new key.
// - `Migrations/`: the schema as ordered migrations, one file each.
// - `PostgreSQL/`: PostgreSQL through a pool of connections, shared by several server instances.
// - `Records/`: the records of applications, users and sessions.
// - `Repositories/`: projects and applications, users, sessions, rate limits, single-use values.
// - `SQLite/`: embedded SQLite in WAL mode: one batched writer and a pool of readers.
//
// SQL lives only in repositories: the shared ones here, each feature's in its own folder (often a
// `Storage/` subfolder), each adding itself to `Repositories` with an extension.
