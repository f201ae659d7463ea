import ArgumentParser

/// `keyway-server`: runs the Keyway authentication server (`serve`, the default) and administers
/// its database (`project …`, `admin …`).
@main
struct KeywayServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keyway-server",
        abstract: "Runs and administers the Keyway authentication server.",
        discussion: """
            Without a subcommand the server starts (`serve`); `keyway-server serve --help` lists its options. \
            The project and admin subcommands work on the database directly (--database, default as the server's).
            """,
        subcommands: [ServeCommand.self, ProjectCommand.self, AdminCommand.self, KeysCommand.self, SchemaCommand.self, MigrateCommand.self, ConfigCommand.self],
        defaultSubcommand: ServeCommand.self)
}
