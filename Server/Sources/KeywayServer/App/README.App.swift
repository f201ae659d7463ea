// App/ — the server as a library: start-up, the route table, shutdown, its configuration and application registration.
//
// - `ApplicationRegistration.swift`: registering an application in the dev project from embedding code.
// - `KeywayServerApp.swift`: opens storage, migrates, loads keys, builds the route table, serves, shuts down.
// - `Configuration/`: `ServerConfiguration` and its settings: database, limits, lifetimes, DPoP, refresh.
// - `Dev/`: dev mode's first-start setup of a dev project and application.
//
// Read `KeywayServerApp.swift` first: `bootstrap(configuration:logger:)`, then `run(onListening:)`,
// and `routeTable()`, which lists every route the server registers.
