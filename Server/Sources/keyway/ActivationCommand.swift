import ArgumentParser
import Foundation
import Keyway
import KeywayPowerAuthClient

/// `keyway activation`: this machine's PowerAuth activation of an application.
struct ActivationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activation",
        abstract: "Activate this machine for PowerAuth signatures, and manage its activation.",
        discussion: """
            An activation is a key exchange between this machine and the server (PowerAuth 3.3), made \
            with an activation code, your Keyway sign-in, or a recovery code and PUK, then committed here \
            with a password. The keys are kept encrypted in the state folder (activation.kwstore, key in \
            activation.key). The application's PowerAuth configuration comes from --powerauth-config or \
            $KEYWAY_POWERAUTH_CONFIG. A terminal has no biometry: the biometry factor's key is kept \
            beside the activation and "the biometric check" is typing y.
            """,
        subcommands: [
            ActivationCreateCommand.self, ActivationCommitCommand.self, ActivationStatusCommand.self,
            ActivationChangePasswordCommand.self, ActivationBiometryCommand.self, ActivationRemoveCommand.self,
            ActivationCodeCommand.self,
        ])
}

/// `keyway activation create --code CODE | --sign-in | --recovery CODE --puk PUK`.
struct ActivationCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Activate this machine with an activation code, your Keyway sign-in, or a recovery code.",
        discussion: """
            The fingerprint of the exchanged keys is printed first: check that the server shows the same \
            eight digits. Then choose the activation's password (--password, or typed without echo; empty \
            leaves the activation waiting for keyway activation commit). A recovery code and PUK, when the \
            application issues them, are printed once: keep them.
            """)

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions

    @Option(help: "An activation code as typed (XXXXX-XXXXX-XXXXX-XXXXX), or a scanned CODE#SIGNATURE.")
    var code: String?

    @Option(help: "With --code: the OTP given with the code.")
    var otp: String?

    @Flag(help: "Activate with the Keyway session of keyway login.")
    var signIn = false

    @Option(help: "A recovery code (with or without R:), with --puk.")
    var recovery: String?

    @Option(help: "The PUK of the recovery code.")
    var puk: String?

    @Option(help: "This machine's name in the list of your devices (default: its host name).")
    var name: String?

    @Option(help: "The activation's password (default: asked without echo).")
    var password: String?

    @Flag(help: "Set up the biometry factor at the commit too.")
    var biometry = false

    func validate() throws {
        let ways = [code != nil, signIn, recovery != nil].filter { $0 }.count
        guard ways == 1 else { throw ValidationError("Give exactly one of --code, --sign-in or --recovery.") }
        if recovery != nil, puk == nil { throw ValidationError("--recovery needs --puk.") }
        if puk != nil, recovery == nil { throw ValidationError("--puk goes with --recovery.") }
        if otp != nil, code == nil { throw ValidationError("--otp goes with --code.") }
    }

    /// The credentials the options give (not for --sign-in).
    func credentials() throws(ActivationError) -> ActivationCredentials? {
        if let code {
            return code.contains("#") ? try .scannedCode(code, otp: otp) : try .typedCode(code, otp: otp)
        }
        if let recovery, let puk { return try .recovery(code: recovery, puk: puk) }
        return nil
    }

    func run() async throws {
        let deviceName = name ?? ProcessInfo.processInfo.hostName
        try await powerAuth.withActivation(options) { activation, terminal in
            let pending: PendingActivation
            if let credentials = try credentials() {
                pending = try await activation.create(with: credentials, name: deviceName)
            } else {
                let keyway = try options.makeKeyway(fallbackConfigID: activation.configuration.configID)
                pending = try await activation.create(signedInWith: keyway.session, keyway: keyway, name: deviceName)
            }
            terminal.status("Activation \(pending.activationID) created.")
            terminal.status("Fingerprint: \(pending.fingerprint) (check that the server shows the same digits)")
            terminal.output(pending.fingerprint)
            if let recovery = pending.recovery {
                terminal.status("Recovery code: \(recovery.recoveryCode)  PUK: \(recovery.puk.revealed)  (keep them; they are shown once)")
            }
            switch PasswordInput.readNew(password, question: "Choose the activation's password (empty: commit later): ", terminal: terminal) {
            case .some(.some(let chosen)):
                try await activation.commit(password: chosen, biometry: biometry)
                terminal.status("Committed: this machine signs with its activation.")
            default:
                terminal.status("Not committed yet: run keyway activation commit.")
            }
        }
    }
}

/// `keyway activation commit`: the local commit with a password.
struct ActivationCommitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "commit", abstract: "Commit the pending activation with its password.")

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions

    @Option(help: "The activation's password (default: asked without echo).")
    var password: String?

    @Flag(help: "Set up the biometry factor too.")
    var biometry = false

    func run() async throws {
        try await powerAuth.withActivation(options) { activation, terminal in
            let state = try await activation.state()
            guard case .pendingCommit(_, let fingerprint) = state else {
                throw state == .none ? ActivationError.noActivation : ActivationError.alreadyCommitted
            }
            terminal.status("Fingerprint: \(fingerprint)")
            guard case .some(.some(let chosen)) = PasswordInput.readNew(password, question: "Choose the activation's password: ", terminal: terminal)
            else { throw ValidationError("A password is needed to commit.") }
            try await activation.commit(password: chosen, biometry: biometry)
            terminal.status("Committed: this machine signs with its activation.")
        }
    }
}

/// `keyway activation status`.
struct ActivationStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show this machine's activation as the server sees it.")

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions

    func run() async throws {
        try await powerAuth.withActivation(options) { activation, terminal in
            let local = try await activation.state()
            guard local != .none else { throw ActivationError.noActivation }
            let status = try await activation.fetchStatus()
            terminal.output(Self.describe(status, local: local))
        }
    }

    static func describe(_ status: ActivationStatusReport, local: LocalActivationState) -> String {
        let here: String = switch local {
        case .none: "none"
        case .pendingCommit(_, let fingerprint): "waiting for its password (fingerprint \(fingerprint))"
        case .active(_, let fingerprint, let biometry): "committed\(biometry ? ", with biometry" : "") (fingerprint \(fingerprint))"
        }
        let counter: String = switch status.counter {
        case .inStep: "in step"
        case .resynchronized(let steps): "moved forward \(steps) step\(steps == 1 ? "" : "s") to the server's"
        case .deviceAhead(let steps): "\(steps) step\(steps == 1 ? "" : "s") ahead of the server (within its window)"
        case .outOfSync: "out of the server's window: signatures will fail"
        }
        return [
            "Activation:      \(status.activationID)",
            "State:           \(Self.name(of: status.state))",
            "On this machine: \(here)",
            "Failed attempts: \(status.failedAttempts) of \(status.maxFailedAttempts) (\(status.remainingAttempts) left)",
            "Counter:         \(counter)",
        ].joined(separator: "\n")
    }

    static func name(of state: ActivationState) -> String {
        switch state {
        case .created: "CREATED"
        case .pendingCommit: "PENDING_COMMIT"
        case .active: "ACTIVE"
        case .blocked: "BLOCKED"
        case .removed: "REMOVED"
        case .unknown(let byte): "unknown (\(byte))"
        }
    }
}

/// `keyway activation change-password`.
struct ActivationChangePasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-password",
        abstract: "Change the activation's password (the server checks the old one first).",
        discussion: "A wrong old password counts as a failed attempt, as any refused signature does.")

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions

    @Option(help: "The current password (default: asked without echo).")
    var oldPassword: String?

    @Option(help: "The new password (default: asked without echo).")
    var newPassword: String?

    func run() async throws {
        try await powerAuth.withActivation(options) { activation, terminal in
            guard let old = PasswordInput.read(oldPassword, question: "Current password: ", terminal: terminal) else { throw ExitCode.failure }
            try await activation.validatePassword(old)
            guard case .some(.some(let new)) = PasswordInput.readNew(newPassword, question: "New password: ", terminal: terminal) else {
                throw ValidationError("A new password is needed.")
            }
            try await activation.changePasswordLocally(from: old, to: new)
            terminal.status("Password changed.")
        }
    }
}

/// `keyway activation biometry add|remove`.
struct ActivationBiometryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "biometry",
        abstract: "Set up the biometry factor (the server releases the vault key for the password), or remove it.")

    /// What to do.
    enum Operation: String, ExpressibleByArgument, CaseIterable {
        case add, remove
    }

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions

    @Argument(help: "add or remove.")
    var operation: Operation

    @Option(help: "With add: the activation's password (default: asked without echo).")
    var password: String?

    func validate() throws {
        if operation == .remove, password != nil { throw ValidationError("remove needs no password.") }
    }

    func run() async throws {
        try await powerAuth.withActivation(options) { activation, terminal in
            switch operation {
            case .add:
                guard let password = PasswordInput.read(password, question: "Password: ", terminal: terminal) else { throw ExitCode.failure }
                try await activation.addBiometry(password: password)
                terminal.status("The biometry factor is set up.")
            case .remove:
                try await activation.removeBiometry()
                terminal.status("The biometry factor is removed.")
            }
        }
    }
}

/// `keyway activation remove [--local]`.
struct ActivationRemoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove the activation on the server (signed with the password) and here; --local: only here.")

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions

    @Flag(help: "Forget the activation on this machine only; the server keeps it until it is removed there.")
    var local = false

    @Option(help: "The activation's password (default: asked without echo).")
    var password: String?

    func validate() throws {
        if local, password != nil { throw ValidationError("--local needs no password.") }
    }

    func run() async throws {
        try await powerAuth.withActivation(options) { activation, terminal in
            guard try await activation.state() != .none else { throw ActivationError.noActivation }
            if local {
                try await activation.removeLocally()
                terminal.status("The activation is forgotten on this machine (the server still has it).")
                return
            }
            guard let password = PasswordInput.read(password, question: "Password: ", terminal: terminal) else { throw ExitCode.failure }
            try await activation.remove(with: .password(password))
            terminal.status("The activation is removed on the server and on this machine.")
        }
    }
}

/// `keyway activation code`: a code for another device of the signed-in user.
struct ActivationCodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "code",
        abstract: "Make an activation code for another device of the signed-in user.",
        discussion: """
            Uses the session of keyway login. The code goes to standard output; its QR text \
            (CODE#SIGNATURE) and expiry to standard error, or everything as JSON with --json.
            """)

    @OptionGroup var options: ClientOptions

    @Option(help: "Seconds the code stays valid (60 to 604800; the server's default is 600).")
    var expiresIn: Int?

    @Option(help: "An OTP the other device must give with the code (4 to 64 characters).")
    var otp: String?

    @Option(help: "automatic (active at the key exchange) or confirm (an administrator commits it).")
    var commit: String?

    @Option(help: "The new activation's name.")
    var name: String?

    @Option(help: "The application (default: the session's).")
    var forConfigId: String?

    @Flag(help: "Print the server's answer as JSON.")
    var json = false

    func validate() throws {
        if let expiresIn, !(60...604_800).contains(expiresIn) { throw ValidationError("--expires-in is 60 to 604800 seconds.") }
        if let otp, !(4...64).contains(otp.count) { throw ValidationError("--otp has 4 to 64 characters.") }
        if let commit, ActivationCodeRequest.Commit(rawValue: commit) == nil {
            throw ValidationError("--commit is automatic or confirm.")
        }
    }

    var request: ActivationCodeRequest {
        ActivationCodeRequest(
            configID: forConfigId, expiresIn: expiresIn, otp: otp, commit: commit.flatMap(ActivationCodeRequest.Commit.init(rawValue:)),
            name: name)
    }

    func run() async throws {
        let terminal = Terminal()
        let keyway = try options.makeKeyway()
        try await DeviceCommandSupport.running(terminal: terminal, server: options.server) {
            let issued = try await UserActivationCodes(keyway: keyway).create(request)
            if json {
                let object: [String: String] = [
                    "activationId": issued.activationID, "activationCode": issued.activationCode,
                    "activationSignature": issued.activationSignature, "qrPayload": issued.qrPayload, "status": issued.status,
                    "expiresAt": issued.expiresAt,
                ]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                terminal.output(String(decoding: data, as: UTF8.self))
            } else {
                terminal.output(issued.activationCode)
                terminal.status("QR text: \(issued.qrPayload)")
                terminal.status("Activation \(issued.activationID), valid until \(issued.expiresAt).")
            }
        }
    }
}
