import Foundation
import KeywayJOSE
import KeywayProtocol

/// SMS codes: a one-time code sent to a phone number. A primary method for a phone identifier,
/// a second factor once the account has a verified number, one that can be set up within a flow
/// (`setupSms`: the number, then a code to it), and a way to prove again who a user is.
struct SMSCodeMethod: CodeMethod, PrimaryMethod, SecondFactorMethod, ReverifyingMethod, AccountListedMethod,
    SignUpCredentialMethod, AccountOperationsMethod, ConfigurableMethod
{
    let id: FlowMethodID = .smsOtp
    let channel: CodeChannel = .sms

    var worksWithoutEnrolment: Bool { true }

    /// Opens the account once its phone number is verified.
    func opensAccount(of user: UserRecord, without removed: String?, _ context: FlowEngine.Context) -> Bool {
        user.verifiedPhone != nil
    }

    let settings: [any MethodSettings.Type] = []

    /// In dev mode codes go to the dev outbox; elsewhere SMS needs a delivery webhook.
    func validate(_ policy: ApplicationPolicy, devMode: Bool) -> [PolicyProblem] {
        guard !devMode, policy.uses(id), policy.delivery.sms == nil else { return [] }
        return [
            PolicyProblem(
                code: "sms_delivery_missing", field: "delivery.sms",
                message: "smsOtp needs SMS delivery outside dev mode: configure delivery.sms with a webhook.")
        ]
    }

    func isPrimaryOption(_ context: FlowEngine.Context) -> Bool { context.identifier.phone != nil }

    func isEnrolled(_ context: FlowEngine.Context) -> Bool { context.user?.verifiedPhone != nil }

    func canEnrol(_ context: FlowEngine.Context) -> Bool {
        context.user?.verifiedPhone == nil && context.identifier.phone == nil
    }

    func canReverify(_ context: FlowEngine.Context) -> Bool { isEnrolled(context) }

    private func destination(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> String? {
        purpose == .primary ? context.identifier.phone : context.user?.verifiedPhone
    }

    func option(for purpose: MethodPurpose, _ context: FlowEngine.Context) -> MethodOption {
        if purpose == .enrolment {
            return MethodOption(id: id.rawValue, type: id, label: "Text me codes (SMS)")
        }
        let masked = destination(for: purpose, context).map(PhoneNumber.mask)
        return MethodOption(
            id: id.rawValue, type: id, label: masked.map { "Text a code to \($0)" } ?? "Text a code", destination: masked)
    }

    func begin(_ purpose: MethodPurpose, _ method: inout MethodContext) async throws {
        if purpose == .enrolment {
            // The number first (`setupSms`), then a code to it.
            try method.keep(CodeStage())
            return
        }
        guard let destination = destination(for: purpose, method.context) else { throw FlowProblem.methodUnavailable }
        try await method.sendCode(self, to: destination)
    }

    func step(for active: ActiveMethod, _ context: FlowEngine.Context, into draft: inout StepDraft, using resources: StepResources) {
        guard let destination = (try? active.state(as: CodeStage.self))?.destination else {
            draft.info = StepInfo(id: "setupSms", label: "Add your phone number")
            draft.payload = .setupSms(SetupSmsPayload(existingPhone: context.user?.phone.map(PhoneNumber.mask)))
            draft.post(
                "submitPhone", "phone", label: "Send a code",
                fields: [
                    Field(
                        name: "phone", type: .phone, required: true, label: "Phone number", placeholder: "+14155550123",
                        autocomplete: "tel", maxLength: 32)
                ])
            return
        }
        CodeStep.build(
            channel: channel, destination: destination, purpose: active.purpose, context, into: &draft,
            limits: resources.limits)
    }

    /// A number verified in a sign-up; a phone identifier stays the account's number.
    func applyCredential(_ credential: JSONValue, to user: inout UserRecord) throws {
        guard user.phone == nil else { return }
        user.phone = try credential.decoding(PhoneCredential.self).phone
        user.phoneVerified = true
    }

    /// Nothing outside the account's row.
    func accountCreated(_ credential: JSONValue, user: UserRecord, in repositories: Repositories) async throws {}

    /// Codes to a verified number are listed, never counted as set up.
    func isSetUp(on user: UserRecord) -> Bool { false }

    func enrolledMethod(_ context: FlowEngine.Context) -> EnrolledMethod? {
        // The account step is its owner's: the number is shown whole.
        guard let phone = context.user?.verifiedPhone else { return nil }
        return EnrolledMethod(
            type: id, label: "SMS codes", detail: phone,
            isSecondFactor: context.policy.mfaMethods.contains(id))
    }

    var notices: [String: String] {
        ["smsAdded": "Your phone number is verified.", "smsRemoved": "Your phone number was removed."]
    }

    func routes(_ routes: FlowInputRoutes) {
        routes.input("phone", of: id, as: SubmitPhoneRequest.self, check: { _ = try Self.phone($0.phone) }) { body, method in
            try await submitPhone(try Self.phone(body.phone), &method)
        }
    }

    /// A phone number as typed, normalized; refused unless it is in international form.
    static func phone(_ raw: String) throws -> String {
        guard let phone = PhoneNumber.normalize(raw) else {
            throw FlowProblem.invalidRequest([
                InvalidField(
                    name: "phone", reason: "Enter the number in international form: + then the country code and number.")
            ])
        }
        return phone
    }

    /// Takes the phone number of a `setupSms` step and sends it a code.
    func submitPhone(_ phone: String, _ method: inout MethodContext) async throws -> FlowProblem? {
        guard (try? method.state(as: CodeStage.self))?.destination == nil else { throw FlowProblem.invalidStep }
        // A number another account uses gets the same answer as a free one — a code step —
        // but only a notice goes to it and no code can match; the code sends it costs are
        // limited per identifier and address like any code, so numbers cannot be probed.
        let owner = try await method.repositories.users.find(projectId: method.application.projectId, phone: phone)
        let free = owner == nil || owner?.id == method.user?.id
        try await method.sendCode(self, to: phone, deliverable: free)
        return nil
    }

    func codeAccepted(destination: String, _ method: inout MethodContext) async throws -> FlowProblem? {
        // Set up: kept for the account a sign-up creates, or the account's number now.
        if method.purpose == .enrolment, try !method.keepForSignUp(PhoneCredential(phone: destination)),
            var user = method.user
        {
            user.phone = destination
            user.phoneVerified = true
            try await method.repositories.users.updateMethods(user)
            method.user = user
            if method.isAccountManagement { method.leaveNotice("smsAdded") }
        }
        return try await method.prove(amr: "sms")
    }
}

/// A phone number a sign-up verified, kept for the account it creates.
struct PhoneCredential: Codable, Sendable, Equatable {
    /// In E.164 form.
    var phone: String
}
