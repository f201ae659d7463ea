import ArgumentParser
import Foundation
import Keyway
import KeywayPowerAuthClient

/// `keyway sign METHOD URI-ID [--body FILE]` and `keyway sign --offline QR-DATA`.
struct SignCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign a request with this machine's activation, or offline data from a QR code.",
        discussion: """
            Online: prints the value of the X-PowerAuth-Authorization header for METHOD, the URI \
            identifier and the exact body (--body FILE, - for standard input; --query NAME=VALUE for a \
            request without a body), for example: curl -H "X-PowerAuth-Authorization: $(keyway sign POST \
            /payments/pay --body pay.json)" --data-binary @pay.json …  Offline: checks the server's \
            signature of the QR data (DATA, NONCE and KEY-FLAG+ECDSA on three lines), shows the data, and \
            prints the digits to type. Each signature moves the counter on; the knowledge factor asks for \
            the password (--password, or typed without echo).
            """)

    /// The factor combinations the command accepts.
    static let factorNames = ["possession", "possession_knowledge", "possession_biometry", "possession_knowledge_biometry"]

    @OptionGroup var options: ClientOptions
    @OptionGroup var powerAuth: PowerAuthOptions

    @Argument(help: "The HTTP method (GET, POST, PUT, DELETE…).")
    var method: String?

    @Argument(help: "The URI identifier the server verifies with, for example /payments/pay.")
    var uriId: String?

    @Option(help: "The file holding the exact request body (- for standard input).")
    var body: String?

    @Option(help: "A query parameter NAME=VALUE of a request without a body (repeat it for each).")
    var query: [String] = []

    @Option(help: "The offline QR data to sign instead of a request.")
    var offline: String?

    @Option(help: "possession, possession_knowledge (default), possession_biometry or possession_knowledge_biometry.")
    var factors = "possession_knowledge"

    @Option(help: "The password, for the knowledge factor (default: asked without echo).")
    var password: String?

    func validate() throws {
        guard Self.factorNames.contains(factors) else {
            throw ValidationError("--factors is one of \(Self.factorNames.joined(separator: ", ")).")
        }
        if offline != nil {
            if method != nil || uriId != nil || body != nil || !query.isEmpty {
                throw ValidationError("--offline takes the QR data alone, without METHOD, URI-ID, --body or --query.")
            }
            return
        }
        guard let method, let uriId else { throw ValidationError("Give METHOD and URI-ID, or --offline QR-DATA.") }
        guard !method.isEmpty, method.allSatisfy({ $0.isLetter && $0.isASCII }) else { throw ValidationError("METHOD is a word such as POST.") }
        guard uriId.hasPrefix("/") else { throw ValidationError("URI-ID starts with /, for example /payments/pay.") }
        if body != nil, !query.isEmpty { throw ValidationError("Give --body or --query, not both.") }
        _ = try queryItems()
    }

    /// `--query` as query items.
    func queryItems() throws -> [URLQueryItem] {
        try query.map { parameter in
            guard let equals = parameter.firstIndex(of: "="), equals != parameter.startIndex else {
                throw ValidationError("--query takes NAME=VALUE.")
            }
            return URLQueryItem(name: String(parameter[..<equals]), value: String(parameter[parameter.index(after: equals)...]))
        }
    }

    func run() async throws {
        let terminal = Terminal()
        let activation = try powerAuth.makeActivation(options)
        // Malformed offline data are refused before the password is asked for.
        var payload: OfflineSignaturePayload?
        if let offline {
            do {
                payload = try DeviceActivation.parseOfflineData(offline)
                // Shown before the password: the user confirms what they sign.
                terminal.status("Data: \(payload?.data ?? "")")
            } catch {
                throw DeviceCommandSupport.fail(error, terminal: terminal, server: options.server)
            }
        }
        // A body file that cannot be read is refused before the password is asked for, too.
        let fileBody: Data? = if let body, body != "-" { try Self.read(body) } else { nil }
        var knowledgePassword: String?
        if factors.contains("knowledge") {
            guard let typed = PasswordInput.read(password, question: "Password: ", terminal: terminal) else { throw ExitCode.failure }
            knowledgePassword = typed
        }
        try await DeviceCommandSupport.running(terminal: terminal, server: options.server) {
            let authentication = try FactorAuthentication(
                typeName: factors, password: knowledgePassword, biometryReason: "Sign with this machine's activation")
            if let offline, payload != nil {
                let signature = try await activation.signOffline(offline, with: authentication)
                terminal.output(signature.signature)
                return
            }
            guard let method, let uriId else { throw ExitCode.failure }
            let header: PowerAuthAuthorizationHeader
            if body != nil {
                let data = fileBody ?? FileHandle.standardInput.readDataToEndOfFile()
                header = try await activation.sign(method: method.uppercased(), uriID: uriId, body: data, with: authentication)
            } else {
                header = try await activation.sign(method: method.uppercased(), uriID: uriId, query: try queryItems(), with: authentication)
            }
            terminal.output(header.value)
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
