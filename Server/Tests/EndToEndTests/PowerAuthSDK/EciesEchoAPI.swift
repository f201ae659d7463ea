import Foundation
import HTTPTypes
import Hummingbird
import KeywayPowerAuth
import KeywayTestSupport
import NIOCore

/// "An app's own API" on loopback that takes end-to-end encrypted bodies as a backend does: it
/// asks keyway-server for the envelope's key (`POST /v1/powerauth/ecies/keys`), decrypts the
/// request with `KeywayPowerAuth`, and answers `{"received": <the plaintext as text>}` sealed
/// with the same context. The scope comes from `X-PowerAuth-Encryption`.
struct EciesEchoAPI: ScopedTestServer {
    let server: LoopbackHTTPServer
    var url: URL { URL(string: "http://127.0.0.1:\(server.port)/echo")! }

    static func start(_ backend: SDKBackend) async throws -> EciesEchoAPI {
        let router = Router()
        router.post("echo") { request, _ -> Response in
            let raw = Data(try await request.body.collect(upTo: 1 << 20).readableBytesView)
            guard let headerValue = request.headers[HTTPField.Name("X-PowerAuth-Encryption")!],
                  let header = try? PowerAuthEncryptionHeader(parsing: headerValue),
                  let envelope = (try? JSONSerialization.jsonObject(with: raw)) as? [String: Any],
                  let ephemeral = (envelope["ephemeralPublicKey"] as? String).flatMap({ Data(base64Encoded: $0) }),
                  let encrypted = (envelope["encryptedData"] as? String).flatMap({ Data(base64Encoded: $0) }),
                  let mac = (envelope["mac"] as? String).flatMap({ Data(base64Encoded: $0) })
            else { return Response(status: .badRequest) }
            var ask: [String: Any] = [
                "applicationKey": header.applicationKey, "scope": header.activationID == nil ? "application" : "activation",
                "temporaryKeyId": envelope["temporaryKeyId"] as Any, "ephemeralPublicKey": envelope["ephemeralPublicKey"] as Any,
                "nonce": envelope["nonce"] as Any, "timestamp": envelope["timestamp"] as Any,
            ]
            if let activationID = header.activationID { ask["activationId"] = activationID }
            let keys = try await backend.call("POST", "/v1/powerauth/ecies/keys", ask)
            guard keys.status == 200, let envelopeKey = (keys.json["envelopeKey"] as? String).flatMap({ Data(base64Encoded: $0) }),
                  let base = (keys.json["sharedInfo2Base"] as? String).flatMap({ Data(base64Encoded: $0) }),
                  let associated = (keys.json["associatedData"] as? String).flatMap({ Data(base64Encoded: $0) })
            else { return Response(status: .unauthorized) }
            let context = EciesContext(
                version: .v33, envelopeKey: try EciesEnvelopeKey(bytes: envelopeKey, ephemeralPublicKey: ephemeral),
                sharedInfo2Base: base, associatedData: associated)
            let plaintext = try context.decrypt(
                EciesPayload(
                    encryptedData: encrypted, mac: mac, ephemeralPublicKey: ephemeral,
                    nonce: (envelope["nonce"] as? String).flatMap { Data(base64Encoded: $0) },
                    timestamp: (envelope["timestamp"] as? NSNumber)?.uint64Value),
                direction: .request)
            let answer = try JSONSerialization.data(withJSONObject: ["received": String(decoding: plaintext, as: UTF8.self)])
            let nonce = Data((0..<16).map { _ in UInt8.random(in: 0...255) })
            let sealed = try context.encrypt(answer, direction: .response, nonce: nonce, timestamp: UInt64(Date().timeIntervalSince1970 * 1000))
            let body = try JSONSerialization.data(withJSONObject: [
                "encryptedData": sealed.encryptedData.base64EncodedString(), "mac": sealed.mac.base64EncodedString(),
                "nonce": nonce.base64EncodedString(), "timestamp": sealed.timestamp ?? 0,
            ])
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
        return EciesEchoAPI(server: try await LoopbackHTTPServer.start(router, label: "ECIES echo API"))
    }

    func stop() async { await server.stop() }
}
