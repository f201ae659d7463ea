import Foundation
import KeywayJOSE
import KeywayProtocol

/// The stored form of ``FlowProgress``: JSON with a `version`. Decoding is tolerant so that
/// releases can be rolled forward and back while flows are in flight:
/// - a missing member takes its default (the one each type documents: `false`, empty, `nil`);
/// - an unknown member is ignored;
/// - a document without `version` is of the format before versions and is converted
///   (``FlowProgressV0``), and one of format 1 has its method members moved (``FlowProgressV1``);
/// - a present member that cannot be read is an error, except where noted (a pending device or a
///   risk note that cannot be read is dropped or read conservatively, never failing the flow).
/// A method's stage state is decoded by its module, with the same rule (its members optional).
extension FlowProgress: Codable {
    private enum CodingKeys: String, CodingKey {
        case version, mode, signIn, signUp, manage, stage, proofs, secondFactorSkipped, enrolmentOffered, failures
        case client, methods, notice, risk, authorization, guest, offeredAfterSignIn, chosenFrom
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.version) else {
            self = try FlowProgressV0(from: decoder).upgraded()
            return
        }
        switch try container.decode(String.self, forKey: .mode) {
        case "signUp":
            mode = .signUp(try container.value(.signUp, or: SignUpDraft()))
        case "manage":
            mode = .manage(try container.value(.manage, or: Management()))
        default:
            mode = .signIn(try container.value(.signIn, or: SignIn()))
        }
        stage = try container.decode(Stage.self, forKey: .stage)
        proofs = try container.value(.proofs, or: [])
        secondFactorSkipped = try container.value(.secondFactorSkipped, or: false)
        enrolmentOffered = try container.value(.enrolmentOffered, or: false)
        offeredAfterSignIn = try container.value(.offeredAfterSignIn, or: false)
        failures = try container.value(.failures, or: [:])
        client = try container.value(.client, or: ClientDescription())
        methodState = try container.value(.methods, or: [:])
        notice = try container.decodeIfPresent(String.self, forKey: .notice)
        risk = try container.decodeIfPresent(StoredRisk.self, forKey: .risk)?.risk
        authorization = try container.decodeIfPresent(AuthorizationParameters.self, forKey: .authorization)
        guest = try container.decodeIfPresent(GuestProgress.self, forKey: .guest)
        // A choice that cannot be read only takes "Use another method" away.
        chosenFrom = try? container.decodeIfPresent(MethodChoice.self, forKey: .chosenFrom)
        if try container.decode(Int.self, forKey: .version) < 2 {
            try FlowProgressV1(from: decoder).upgrade(&self)
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .version)
        switch mode {
        case .signIn(let signIn):
            try container.encode("signIn", forKey: .mode)
            try container.encode(signIn, forKey: .signIn)
        case .signUp(let draft):
            try container.encode("signUp", forKey: .mode)
            try container.encode(draft, forKey: .signUp)
        case .manage(let management):
            try container.encode("manage", forKey: .mode)
            try container.encode(management, forKey: .manage)
        }
        try container.encode(stage, forKey: .stage)
        try container.encode(proofs, forKey: .proofs)
        try container.encode(secondFactorSkipped, forKey: .secondFactorSkipped)
        try container.encode(enrolmentOffered, forKey: .enrolmentOffered)
        if offeredAfterSignIn { try container.encode(offeredAfterSignIn, forKey: .offeredAfterSignIn) }
        try container.encode(failures, forKey: .failures)
        if client != ClientDescription() { try container.encode(client, forKey: .client) }
        if !methodState.isEmpty { try container.encode(methodState, forKey: .methods) }
        try container.encodeIfPresent(notice, forKey: .notice)
        try container.encodeIfPresent(risk, forKey: .risk)
        try container.encodeIfPresent(authorization, forKey: .authorization)
        try container.encodeIfPresent(guest, forKey: .guest)
        try container.encodeIfPresent(chosenFrom, forKey: .chosenFrom)
    }
}

/// A risk note as stored: read with defaults that keep its effect (an unreadable level is `high`).
private struct StoredRisk: Decodable {
    let risk: Risk

    private enum CodingKeys: String, CodingKey { case level, message, reasons }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        risk = Risk(
            level: (try? container.decodeIfPresent(String.self, forKey: .level)) ?? "high",
            message: try? container.decodeIfPresent(String.self, forKey: .message),
            reasons: (try? container.decodeIfPresent([String].self, forKey: .reasons)) ?? [])
    }
}

extension FlowProgress.Stage: Codable {
    private enum CodingKeys: String, CodingKey { case kind, choice, method, purpose, state }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .kind) {
        case "choosing":
            self = .choosing(try container.decode(MethodChoice.self, forKey: .choice))
        case "method":
            let method = try container.decode(FlowMethodID.self, forKey: .method)
            self = .method(
                ActiveMethod(
                    method: method,
                    purpose: try container.value(.purpose, or: .primary),
                    rawState: try container.value(.state, or: JSONValue.object([:]))))
        case "form":
            self = .form
        case "manageAccount":
            self = .manageAccount
        case "accountExists":
            self = .accountExists
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: container, debugDescription: "A stage this release does not know: \(other).")
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .choosing(let choice):
            try container.encode("choosing", forKey: .kind)
            try container.encode(choice, forKey: .choice)
        case .method(let active):
            try container.encode("method", forKey: .kind)
            try container.encode(active.method, forKey: .method)
            try container.encode(active.purpose, forKey: .purpose)
            try container.encode(active.rawState, forKey: .state)
        case .form:
            try container.encode("form", forKey: .kind)
        case .manageAccount:
            try container.encode("manageAccount", forKey: .kind)
        case .accountExists:
            try container.encode("accountExists", forKey: .kind)
        }
    }
}





extension KeyedDecodingContainer {
    /// The member at `key`, or `fallback` when it is missing or `null`.
    func value<T: Decodable>(_ key: Key, or fallback: @autoclosure () -> T) throws -> T {
        try decodeIfPresent(T.self, forKey: key) ?? fallback()
    }
}

extension JSONValue {
    /// The JSON form of an encodable value.
    static func encoding<T: Encodable>(_ value: T) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
    }

    /// This JSON read as `type`.
    func decoding<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: JSONEncoder().encode(self))
    }
}
