import ArgumentParser
import Foundation
import Keyway
import KeywayProtocol

/// `keyway devices`: the signed-in user's trusted devices, and revoking them.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the signed-in account's trusted devices, or stop trusting them.",
        discussion: """
            A device becomes trusted when it completes a second factor while the application's policy \
            turns trusted devices on; later sign-ins on it prove the device instead of asking for the \
            second factor. This machine's device key and record are kept encrypted in the state folder \
            (devices.kwstore, key in devices.key).
            """,
        subcommands: [ListDevicesCommand.self, RevokeDevicesCommand.self],
        defaultSubcommand: ListDevicesCommand.self)
}

/// `keyway devices [list]`: prints each trusted device of the signed-in user.
struct ListDevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the signed-in account's trusted devices in this application.",
        discussion: "The list goes to standard output; this machine is marked (this device).")

    @OptionGroup var options: ClientOptions

    @Option(help: "The identifier this machine signed in with, to mark it (default: the session's email address).")
    var identifier: String?

    func run() async throws {
        let keyway = try options.makeKeyway()
        let session = keyway.session
        let terminal = Terminal()
        let devices: [TrustedDevice]
        let thisDevice: String?
        do {
            devices = try await session.trustedDevices()
            let identifier = try await DeviceCommandSupport.identifier(explicit: identifier, session: session)
            thisDevice = if let identifier { await keyway.trustedDeviceID(for: identifier) } else { nil }
        } catch {
            throw DeviceCommandSupport.fail(error, terminal: terminal, server: options.server)
        }
        guard !devices.isEmpty else {
            terminal.status("No trusted devices.")
            return
        }
        for device in devices {
            terminal.output(Self.describe(device, isThisDevice: device.id == thisDevice))
        }
    }

    static func describe(_ device: TrustedDevice, isThisDevice: Bool) -> String {
        [
            "\(device.id)  \(device.name)\(isThisDevice ? "  (this device)" : "")",
            "  Key:           \(device.hardwareBacked ? "hardware key" : "software key")",
            "  Created:       \(Terminal.format(device.createdAt))",
            "  Last used:     \(device.lastUsedAt.map(Terminal.format) ?? "never")",
            "  Trusted until: \(Terminal.format(device.trustedUntil))",
        ].joined(separator: "\n")
    }
}

/// `keyway devices revoke ID` and `keyway devices revoke --all`.
struct RevokeDevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revoke",
        abstract: "Stop trusting one of the signed-in account's devices, or all of them (--all).",
        discussion: """
            A revoked device asks for the second factor again at its next sign-in. Revoking this \
            machine also deletes its device key here.
            """)

    @OptionGroup var options: ClientOptions

    @Flag(help: "Revoke every trusted device of the account in this application, this one included.")
    var all = false

    @Option(help: "The identifier this machine signed in with (default: the session's email address).")
    var identifier: String?

    @Argument(help: "The ID of the device to revoke (dev_…), as keyway devices lists it.")
    var id: String?

    func validate() throws {
        if all, id != nil { throw ValidationError("Give a device ID or --all, not both.") }
        if !all, id == nil { throw ValidationError("Give the ID of the device to revoke, or --all.") }
    }

    func run() async throws {
        let keyway = try options.makeKeyway()
        let session = keyway.session
        let terminal = Terminal()
        do {
            guard try await session.tokens() != nil else { throw SessionError.noAccessTokenPresent }
            let identifier = try await DeviceCommandSupport.identifier(explicit: identifier, session: session)
            let thisDevice: String? = if let identifier { await keyway.trustedDeviceID(for: identifier) } else { nil }
            if let id {
                try await session.revokeTrustedDevice(id: id)
                terminal.status("Device \(id) is no longer trusted.")
            } else {
                try await session.revokeAllTrustedDevices()
                terminal.status("No device of this account is trusted any more.")
            }
            // The key of a revoked device is of no further use here.
            if let identifier, let thisDevice, all || id == thisDevice {
                await keyway.forgetTrustedDevice(for: identifier)
            }
        } catch {
            throw DeviceCommandSupport.fail(error, terminal: terminal, server: options.server)
        }
    }
}
