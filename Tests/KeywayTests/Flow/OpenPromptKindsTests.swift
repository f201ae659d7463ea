import Foundation
@testable import Keyway
import KeywayProtocol
import Testing

/// A kind a server could add after this SDK version shipped, declared here as an app would meet it.
extension StepKind {
    static let scanBadge = StepKind(rawValue: "scanBadge")
}

/// What an app writes: a `switch` over every kind it knows, then `default:`. It compiles against
/// an open ``Prompt``; a server that adds a method adds a kind, never a case this switch lacks.
private func sampleAppDraw(_ prompt: Prompt) -> String {
    switch prompt.kind {
    case .enterCode: "code field of \(prompt.enterCode?.codeLength ?? 0)"
    case .selectMethod: "\(prompt.selectMethod?.methods.count ?? 0) choices"
    case .setupSms: "phone field"
    case .setupTotp: "QR code"
    case .enterTotp: "authenticator code"
    case .enterPassword: "password field"
    case .form: "form \(prompt.form?.formID ?? "")"
    case .manageAccount: "account"
    case .awaitApproval: "matching number \(prompt.awaitApproval?.matchingNumber ?? "")"
    case .redirect: "browser"
    case .passkeyRegister: "create a passkey"
    case .passkeyAuthenticate: "use a passkey"
    case .linkAccount: "link"
    case .accountExists: "account exists"
    default: "drawn from the step's actions"
    }
}

@Suite("Prompt kinds are open: a new kind never breaks an app's switch")
struct OpenPromptKindsTests {
    @Test func aPromptIsAStructWithAnOpenKindNotAClosedEnum() {
        let prompt = Prompt.enterCode(
            destination: "a•••@example.com", codeLength: 6, expiresAt: Date(timeIntervalSince1970: 600),
            resendAt: Date(timeIntervalSince1970: 30), channel: .email)
        // An enum would let apps switch exhaustively, and a new case would break their build.
        #expect(Mirror(reflecting: prompt).displayStyle == .struct)
        #expect(prompt.kind == .enterCode)
        #expect(prompt.enterCode?.codeLength == 6)
        #expect(prompt.selectMethod == nil && prompt.unrecognized == nil)
        #expect(sampleAppDraw(prompt) == "code field of 6")
    }

    @Test func aKindThisVersionDoesNotKnowReachesTheAppsDefault() throws {
        let field = #"[{"name": "badge", "type": "text", "label": "Badge number", "required": true}]"#
        let step = try Steps.decode(
            Steps.step(
                kind: "scanBadge", payload: nil,
                actions: [Steps.action("submitBadge", path: "/badge", fields: field), Steps.cancel]))
        let prompt = try #require(Prompt(step: step))
        #expect(prompt.kind == .scanBadge)
        #expect(prompt.unrecognized == .scanBadge)
        #expect(sampleAppDraw(prompt) == "drawn from the step's actions")
        // What the app draws it from: the step's actions and their fields.
        #expect(step.action(named: "submitBadge")?.fields.map(\.name) == ["badge"])
    }

    @Test func everyKnownKindHasItsAccessorAndNoOther() throws {
        let steps = [
            Steps.enterCode(), Steps.selectMethod(), Steps.setupSms(), Steps.setupTotp(), Steps.enterTotp(),
            Steps.enterPassword(), Steps.form(), Steps.manageAccount(),
        ]
        for json in steps {
            let prompt = try #require(Prompt(step: try Steps.decode(json)))
            let present: [StepKind] = [
                prompt.enterCode.map { _ in .enterCode }, prompt.selectMethod.map { _ in .selectMethod },
                prompt.setupSms.map { _ in .setupSms }, prompt.setupTotp.map { _ in .setupTotp },
                prompt.enterTotp.map { _ in .enterTotp }, prompt.enterPassword.map { _ in .enterPassword },
                prompt.form.map { _ in .form }, prompt.manageAccount.map { _ in .manageAccount },
                prompt.unrecognized.map { _ in .completed },
            ].compactMap { $0 }
            #expect(present == [prompt.kind], "\(prompt.kind.rawValue): \(present)")
        }
    }
}
