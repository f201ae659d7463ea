import ArgumentParser
import Foundation
import Keyway
import KeywayPowerAuthClient

/// `keyway encrypt --scope application|activation --url URL [--body FILE]`.
struct EncryptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "Send a request body end-to-end encrypted (PowerAuth ECIES) and print the decrypted answer.",
        discussion: """
            The body (--body FILE, - for standard input; {} by default) is sealed with a temporary key of \
            the server in application scope (no activation needed) or in this machine's activation scope, \
            and POSTed to --url (a full URL, or a path below --server) with X-PowerAuth-Encryption. With \
            --uri-id (activation scope) the sealed body is also signed (encrypt-then-sign) and travels \
            with X-PowerAuth-Authorization instead. The decrypted answer goes to standard output.
            """)

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions

    @Option(help: "application or activation.")
    var scope: String

    @Option(help: "Where to POST: a full URL, or a path below --server.")
    var url: String

    @Option(help: "The file holding the body to encrypt (- for standard input; default: {}).")
    var body: String?

    @Option(help: "Activation scope: sign the sealed body with this URI identifier (encrypt-then-sign).")
    var uriId: String?

    @OptionGroup var factorOptions: FactorOptions

    func validate() throws {
        guard let scope = EncryptorScope(rawValue: scope) else { throw ValidationError("--scope is application or activation.") }
        if uriId != nil, scope != .activation { throw ValidationError("--uri-id signs in activation scope only.") }
        if let uriId, !uriId.hasPrefix("/") { throw ValidationError("--uri-id starts with /.") }
        _ = try target()
    }

    /// `--url` as an absolute URL.
    func target() throws -> URL {
        if url.hasPrefix("/") {
            guard let base = URL(string: options.server), let full = URL(string: base.absoluteString.trimmingSuffix("/") + url) else {
                throw ValidationError("--server is not a URL.")
            }
            return full
        }
        guard let full = URL(string: url), full.scheme == "http" || full.scheme == "https" else {
            throw ValidationError("--url is an http(s) URL or a path starting with /.")
        }
        return full
    }

    func run() async throws {
        let terminal = Terminal()
        let activation = try powerAuth.makeActivation(options)
        let plaintext: Data
        if let body {
            plaintext = body == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Self.read(body)
        } else {
            plaintext = Data("{}".utf8)
        }
        let target = try target()
        try await DeviceCommandSupport.running(terminal: terminal, server: options.server) {
            let encryptor = try await activation.encryptor(scope: EncryptorScope(rawValue: scope) ?? .application)
            let answer: Data
            if let uriId {
                guard let authentication = try factorOptions.authentication(terminal: terminal, reason: "Sign the encrypted request")
                else { throw ExitCode.failure }
                let request = try await encryptor.seal(plaintext)
                let header = try await activation.sign(method: "POST", uriID: uriId, body: request.body, with: authentication)
                let transport = options.transport
                let response = try await transport.send(TransportRequest(
                    method: "POST", url: target,
                    headers: ["Content-Type": "application/json", PowerAuthAuthorizationHeader.name: header.value], body: request.body))
                guard response.status == 200 else {
                    terminal.status("Error: the server answered HTTP \(response.status): \(String(decoding: response.body, as: UTF8.self))")
                    throw ExitCode.failure
                }
                answer = try request.openResponse(response.body)
            } else {
                answer = try await encryptor.send(plaintext, to: target)
            }
            terminal.output(String(decoding: answer, as: UTF8.self))
        }
    }

    private static func read(_ path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("Cannot read the body file \(path).")
        }
    }
}

extension String {
    /// The string without one trailing `suffix`.
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
