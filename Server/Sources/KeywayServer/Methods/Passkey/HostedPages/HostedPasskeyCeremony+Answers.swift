import Foundation
import KeywayJOSE
import KeywayProtocol

/// A passkey form's two sides: the ceremony a page runs, and the answer its form sends back.
extension HostedPasskeyCeremony {
    /// A ceremony with `options` as JSON and the page's sentences for a browser without passkeys
    /// and for a ceremony that failed.
    init<Options: Encodable>(_ mode: Mode, options: Options, strings: HostedStrings, conditional: Bool = false) {
        let json = (try? WireCoding.makeEncoder().encode(options)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        self.init(
            mode: mode, optionsJSON: json, unsupportedText: strings("passkey.unsupported"),
            failedText: strings("passkey.failed"), conditional: conditional)
    }

    /// The `credential` value a passkey form sends (the answer's JSON, as the script wrote it),
    /// read as JSON: at most 64 KiB; anything else is `passkey_malformed`.
    static func answer(_ value: String?) throws -> JSONValue {
        guard let value, value.utf8.count <= 64 * 1024,
            let json = try? JSONDecoder().decode(JSONValue.self, from: Data(value.utf8))
        else { throw FlowProblem.passkeyNotAnswered }
        return json
    }
}
