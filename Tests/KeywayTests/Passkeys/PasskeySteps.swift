import Foundation
import Keyway
import KeywayProtocol

/// Step documents of passkeys, as the server sends them.
extension Steps {
    static let passkeyUserHandle = "dXNlci0wMDAxLWhhbmRsZQ"
    static let firstChallenge = "Q0hBTExFTkdFLTEtQ0hBTExFTkdFLTEtQ0hBTExFTkdF"
    static let secondChallenge = "Q0hBTExFTkdFLTItQ0hBTExFTkdFLTItQ0hBTExFTkdF"

    static func passkeyRegister(
        challenge: String = firstChallenge, skippable: Bool = false, exclude: [String] = [], flowToken: Bool = false,
        traceId: String = "5a0a01a5aebed2783c880d926726dc9b"
    ) -> String {
        let excluded = exclude.map { #"{"type": "public-key", "id": "\#($0)"}"# }.joined(separator: ",")
        var actions = [action("registerPasskey", path: "/passkey/register"), cancel]
        if skippable { actions.insert(action("skip", path: "/skip"), at: 1) }
        return step(
            kind: "passkeyRegister",
            payload: """
                {"options": {"rp": {"id": "example.com", "name": "Example"},
                  "user": {"id": "\(passkeyUserHandle)", "name": "ada@example.com", "displayName": "Ada"},
                  "challenge": "\(challenge)",
                  "pubKeyCredParams": [{"type": "public-key", "alg": -7}, {"type": "public-key", "alg": -257}],
                  "timeout": 300000, "excludeCredentials": [\(excluded)],
                  "authenticatorSelection": {"residentKey": "required", "requireResidentKey": true, "userVerification": "required"},
                  "attestation": "none", "extensions": {"credProps": true}},
                 "purpose": "enrolment"}
                """,
            actions: actions, flowToken: flowToken
        ).replacingOccurrences(of: "5a0a01a5aebed2783c880d926726dc9b", with: traceId)
    }

    static func passkeyAuthenticate(
        challenge: String = firstChallenge, allow: [String] = [], purpose: String = "primary", attempts: Int = 3,
        flowToken: Bool = false, traceId: String = "5a0a01a5aebed2783c880d926726dc9b"
    ) -> String {
        let allowed = allow.map { #"{"type": "public-key", "id": "\#($0)", "transports": ["internal"]}"# }
            .joined(separator: ",")
        return step(
            kind: "passkeyAuthenticate",
            payload: """
                {"options": {"challenge": "\(challenge)", "timeout": 300000, "rpId": "example.com",
                  "allowCredentials": [\(allowed)], "userVerification": "preferred"},
                 "purpose": "\(purpose)", "attemptsRemaining": \(attempts)}
                """,
            actions: [action("authenticatePasskey", path: "/passkey/authenticate"), cancel], flowToken: flowToken
        ).replacingOccurrences(of: "5a0a01a5aebed2783c880d926726dc9b", with: traceId)
    }

    static func manageWithPasskeys(traceId: String = "5a0a01a5aebed2783c880d926726dc9b", flowToken: Bool = false) -> String {
        step(
            kind: "manageAccount",
            payload: """
                {"methods": [{"type": "passkey", "label": "Passkeys", "isSecondFactor": true}],
                 "passkeys": [
                   {"id": "pk_1", "name": "iPhone", "createdAt": "2026-11-20T10:00:00Z", "lastUsedAt": "2026-11-23T07:00:00Z", "synced": true},
                   {"id": "pk_2", "name": "YubiKey", "createdAt": "2026-11-21T10:00:00Z", "synced": false}]}
                """,
            actions: [
                action("addPasskey", path: "/manage/addPasskey"),
                action(
                    "renamePasskey", path: "/manage/renamePasskey",
                    fields: #"[{"name": "passkeyId", "type": "select", "required": true, "options": [{"value": "pk_1", "label": "iPhone"}, {"value": "pk_2", "label": "YubiKey"}]}, {"name": "name", "type": "text", "required": true, "maxLength": 64}]"#
                ),
                action(
                    "removePasskey", path: "/manage/removePasskey",
                    fields: #"[{"name": "passkeyId", "type": "select", "required": true, "options": [{"value": "pk_1", "label": "iPhone"}, {"value": "pk_2", "label": "YubiKey"}]}]"#
                ),
                action("finish", path: "/manage/finish"), cancel,
            ], flowToken: flowToken
        ).replacingOccurrences(of: "5a0a01a5aebed2783c880d926726dc9b", with: traceId)
    }

    /// A refused passkey, as the server answers it: 400, `retryInput`, the attempts left.
    static func passkeyRefusal(_ code: String, attemptsRemaining: Int = 2) -> TransportResponse {
        let json = """
            {"type":"urn:keyway:problem:\(code)","title":"Passkey refused","status":400,
             "detail":"The passkey's signature does not verify.","code":"\(code)","action":"retryInput",
             "retryable":false,"attemptsRemaining":\(attemptsRemaining),"traceId":"trace-refused"}
            """
        return TransportResponse(status: 400, headers: ["Content-Type": "application/problem+json"], body: Data(json.utf8))
    }
}
