import Foundation
import Hummingbird
import KeywayJOSE
import KeywayProtocol

/// Signing in with a passkey from the identifier page: a "Sign in with a passkey" button — and,
/// where the browser supports it, the passkeys offered among the identifier field's suggestions
/// (conditional mediation) — whose answer `POST /login/passkey` hands to a flow started without
/// an identifier.
extension HostedLogin {
    /// Adds the passkey sign-in to the identifier page, where the application signs in with
    /// passkeys; its challenge is kept in the visit until an answer spends it. With `autofill`
    /// the page's script also offers the passkeys among the identifier field's suggestions.
    func addPasskeySignIn(to page: inout HostedPage, visit: inout Visit, strings: HostedStrings, autofill: Bool = true)
        async throws
    {
        guard visit.state.flowType != "signup", visit.state.purpose == .authorize || visit.state.purpose == .account,
            let relyingParty = try await passkeyRelyingParty(for: visit.application)
        else { return }
        if visit.state.passkeyChallenge == nil {
            visit.state.passkeyChallenge = Base64URL.encode(SecureRandom.bytes(32))
            try await save(visit)
        }
        let options = PublicKeyCredentialRequestOptions(
            challenge: visit.state.passkeyChallenge ?? "", timeout: PasskeyOptions.timeout, rpID: relyingParty.id,
            userVerification: relyingParty.userVerification.rawValue)
        var form = HostedForm(
            action: "/login/passkey", csrfToken: visit.record.csrfToken,
            hidden: [HostedHiddenValue(name: "credential", value: "")], submitLabel: strings("passkey.signIn"),
            style: .secondary)
        form.passkey = HostedPasskeyCeremony(.get, options: options, strings: strings, conditional: autofill)
        // After the identifier's form, before the switch to sign-up and cancel.
        if let index = page.forms.firstIndex(where: { $0.action == "/login/identify" }) {
            page.forms[index].fields = page.forms[index].fields.map { field in
                var field = field
                if field.name == "identifier" { field.autocomplete = "username webauthn" }
                return field
            }
            page.forms.insert(form, at: index + 1)
        } else {
            page.forms.insert(form, at: 0)
        }
    }

    /// The application's relying party, when its policy signs in with passkeys.
    func passkeyRelyingParty(for application: ApplicationRecord) async throws -> WebAuthnRelyingParty? {
        let policy = try await database.read { try await self.engine.directory.policy(for: application, in: $0) }
        guard policy.primaryMethods.contains(.passkey) else { return nil }
        return policy.passkeys.relyingParty(issuer: issuer())
    }

    /// `POST /login/passkey`: starts a sign-in without an identifier with the page's challenge
    /// and sends the passkey's answer to it.
    func passkeySignIn(_ request: Request, context: KeywayRequestContext) async throws -> Response {
        guard var visit = try await visit(for: request) else { return expiredPage() }
        guard let form = try await checkedForm(request, context: context, csrfToken: visit.record.csrfToken) else {
            return forbiddenPage()
        }
        // The challenge is spent by this answer, whatever becomes of it.
        guard let challenge = visit.state.passkeyChallenge else { return Self.seeOther("/login") }
        visit.state.passkeyChallenge = nil
        do {
            let credential = try HostedPasskeyCeremony.answer(form["credential"])
            let verifier = Base64URL.encode(SecureRandom.bytes(32))
            var start = StartFlowRequest(flowType: .signin, identifier: "", codeChallenge: PKCE.challenge(for: verifier))
            start.passkey = true
            let step = try await engine.start(
                configId: visit.application.configId, request: start, clientAddress: context.remoteAddress,
                userAgent: request.headers[.userAgent], hostedPages: true, passkeyChallenge: challenge,
                traceId: context.traceId)
            guard let flowToken = step.flowToken?.revealed, let action = step.action(named: "authenticatePasskey") else {
                throw FlowProblem.invalidStep
            }
            visit.state.flowId = step.flowID
            visit.state.sealedFlowToken = try seal(flowToken: flowToken, for: visit)
            visit.state.flash = nil
            try await save(visit)
            let next = try await flowAPI.perform(
                action, body: ["credential": credential], flowToken: flowToken, configId: visit.application.configId,
                userAgent: request.headers[.userAgent], context: context)
            if let next, case .completed(let completion) = next.payload {
                return try await completeSignIn(
                    visit, completion: completion, request: request,
                    strings: HostedStrings.forLocales(visit.state.request?.uiLocales ?? []))
            }
        } catch let problem as FlowProblem {
            // A refused passkey leaves the identifier page, with a new challenge, and the reason.
            visit.state.flowId = nil
            visit.state.sealedFlowToken = nil
            visit.state.flash = Self.flash(problem, field: nil)
            try await save(visit)
        }
        return Self.seeOther("/login")
    }
}
