import Foundation
import Keyway
import KeywayProtocol
import KeywayUI
@testable import KeywayPresentation
import Testing

/// Steps as a server sends them, for the screen tests.
enum Steps {
    static let base = "/v1/flows/flw_1"

    static func step(
        _ kind: String, payload: String? = nil, actions: [String] = [], messages: String = "[]", info: String? = nil
    ) throws -> Step {
        let json = json(kind, payload: payload, actions: actions, messages: messages, info: info)
        return try WireCoding.makeDecoder().decode(Step.self, from: Data(json.utf8))
    }

    /// The step document of `step(_:payload:actions:messages:info:)`, as the server sends it (with
    /// `traceId`, so that two answers are two steps).
    static func json(
        _ kind: String, payload: String? = nil, actions: [String] = [], messages: String = "[]", info: String? = nil,
        traceId: String = "t1"
    ) -> String {
        let cancel = #"{"name":"cancel","href":"\#(base)","method":"DELETE","label":"Cancel","fields":[]}"#
        let payloadPart = payload.map { #","\#(kind)":\#($0)"# } ?? ""
        let infoPart = info.map { #","stepInfo":{"id":"x","label":"\#($0)"}"# } ?? ""
        return """
            {"flowId":"flw_1","kind":"\(kind)"\(payloadPart)\(infoPart),"actions":[\((actions + [cancel]).joined(separator: ","))],
            "links":[{"rel":"self","href":"\(base)"}],"messages":\(messages),"meta":{"traceId":"\(traceId)"}}
            """
    }

    static func action(_ name: String, _ path: String, label: String, fields: String = "[]") -> String {
        #"{"name":"\#(name)","href":"\#(base)/\#(path)","method":"POST","label":"\#(label)","fields":\#(fields)}"#
    }

    static let codeField = #"[{"name":"code","type":"code","required":true,"label":"Code","autocomplete":"one-time-code","minLength":6,"maxLength":6,"pattern":"^[0-9]{6}$"}]"#

    /// The screen of `step` as the flow shows it.
    static func screen(_ step: Step) -> Screen {
        let context = PromptContext(step: step)
        let prompt = Prompt(step: step) ?? .unrecognized(kind: step.kind)
        return Screen.make(update: .prompt(context, prompt), context: context)
    }
}

@Suite("Screens: every step drawn as inputs, buttons, displays and countdowns")
struct ScreenTests {
    @Test func aCodeStepHasACodeInputTheResendButtonAndItsCountdowns() throws {
        let step = try Steps.step(
            "enterCode",
            payload: #"{"destination":"a•••@example.com","codeLength":6,"expiresAt":"2026-11-24T10:10:00Z","resendAt":"2026-11-24T10:00:30Z","channel":"email","attemptsRemaining":5}"#,
            actions: [
                Steps.action("submitCode", "code", label: "Continue", fields: Steps.codeField),
                Steps.action("resend", "resend", label: "Send a new code"),
            ],
            messages: #"[{"level":"info","code":"codeSent","text":"We sent a 6-digit code to a•••@example.com."}]"#,
            info: "Verify your email")
        let screen = Steps.screen(step)
        #expect(screen.kind == .step(.enterCode))
        #expect(screen.title == "Verify your email")
        #expect(screen.messages.map(\.code) == ["codeSent"])
        #expect(screen.inputs.map(\.name) == ["code"])
        #expect(screen.inputs.first?.kind == .code(length: 6))
        #expect(screen.inputs.first?.keyboard == .numberPad)
        #expect(screen.inputs.first?.contentType == "one-time-code")
        #expect(screen.primaryAction?.id == "submitCode")
        #expect(screen.primaryAction?.submitsInputs == true)
        #expect(screen.secondaryActions.map(\.id) == ["resend", "cancel"])
        #expect(screen.action("resend")?.availableAt == ISO8601DateFormatter().date(from: "2026-11-24T10:00:30Z"))
        #expect(screen.countdowns.map(\.purpose) == [.resendAvailable, .codeExpires])
        #expect(screen.inputs.first?.validate("12a456") != nil)
        #expect(screen.inputs.first?.validate("123456") == nil)
    }

    @Test func aMethodChoiceIsOneButtonPerMethodAndSkip() throws {
        let step = try Steps.step(
            "selectMethod",
            payload: #"{"methods":[{"id":"totp","type":"totp","label":"Use your authenticator app"},{"id":"smsOtp","type":"smsOtp","label":"Text a code to +1••23","destination":"+1••23"}],"purpose":"secondFactor","skippable":true}"#,
            actions: [
                Steps.action("selectMethod", "method", label: "Continue", fields: #"[{"name":"methodId","type":"select","required":true}]"#),
                Steps.action("skip", "skip", label: "Not now"),
            ])
        let screen = Steps.screen(step)
        #expect(screen.inputs.isEmpty)
        #expect(screen.primaryAction == nil)
        #expect(screen.secondaryActions.map(\.id) == ["selectMethod:totp", "selectMethod:smsOtp", "skip", "cancel"])
        #expect(screen.action("selectMethod:smsOtp")?.parameters == ["methodId": "smsOtp"])
        #expect(screen.action("selectMethod:smsOtp")?.label == "Text a code to +1••23")
        #expect(screen.title == "Choose how to continue")
        #expect(screen.instruction == "Choose a second factor")
        #expect(!screen.isWaiting)
    }

    @Test func anAuthenticatorSetUpShowsTheQRCodeAndTheKey() throws {
        let step = try Steps.step(
            "setupTotp",
            payload: #"{"secret":"JBSWY3DPEHPK3PXP","otpauthUrl":"otpauth://totp/Shop:a?secret=JBSWY3DPEHPK3PXP","period":30,"digits":6,"algorithm":"SHA1"}"#,
            actions: [Steps.action("submitTotp", "totp", label: "Verify", fields: Steps.codeField)])
        let screen = Steps.screen(step)
        #expect(
            screen.displays == [
                .qrCode(label: "Scan with your authenticator app", data: Sensitive("otpauth://totp/Shop:a?secret=JBSWY3DPEHPK3PXP")),
                .secret(label: "Or type this key", value: Sensitive("JBSWY3DPEHPK3PXP")),
            ])
        #expect(screen.primaryAction?.label == "Verify")
        #expect(screen.inputs.map(\.name) == ["code"])
    }

    @Test func aNewPasswordKnowsItsMinimumAndAPasswordToEnterDoesNot() throws {
        let field = #"[{"name":"password","type":"password","required":true,"label":"Password","autocomplete":"new-password","minLength":10,"maxLength":128}]"#
        let create = Steps.screen(
            try Steps.step(
                "enterPassword", payload: #"{"purpose":"create","minimumLength":10}"#,
                actions: [Steps.action("submitPassword", "password", label: "Continue", fields: field)]))
        #expect(create.inputs.first?.kind == .newPassword(minimumLength: 10))
        #expect(create.inputs.first?.validate("short") != nil)
        let signInField = #"[{"name":"password","type":"password","required":true,"label":"Password","autocomplete":"current-password"}]"#
        let signIn = Steps.screen(
            try Steps.step(
                "enterPassword", payload: #"{"purpose":"signIn"}"#,
                actions: [Steps.action("submitPassword", "password", label: "Continue", fields: signInField)]))
        #expect(signIn.inputs.first?.kind == .password)
    }

    @Test func aMethodChosenAmongOthersOffersToGoBackOnceBeforeCancel() throws {
        let field = #"[{"name":"password","type":"password","required":true,"label":"Password","autocomplete":"current-password"}]"#
        let password = Steps.screen(
            try Steps.step(
                "enterPassword", payload: #"{"purpose":"signIn"}"#,
                actions: [
                    Steps.action("submitPassword", "password", label: "Continue", fields: field),
                    Steps.action("anotherMethod", "anotherMethod", label: "Use another method"),
                ]))
        #expect(password.primaryAction?.actionName == "submitPassword")
        #expect(password.secondaryActions.map(\.id) == ["anotherMethod", "cancel"])
        #expect(password.action("anotherMethod")?.label == "Use another method")
        #expect(password.action("anotherMethod")?.role == .secondary)
        // A step drawn from its actions alone (a form) gets the button once.
        let form = Steps.screen(
            try Steps.step(
                "enterTotp", payload: #"{"digits":6,"period":30,"purpose":"secondFactor","attemptsRemaining":5}"#,
                actions: [
                    Steps.action("submitTotp", "totp", label: "Verify", fields: Steps.codeField),
                    Steps.action("anotherMethod", "anotherMethod", label: "Use another method"),
                ]))
        #expect(form.actions.filter { $0.actionName == "anotherMethod" }.count == 1)
        // Without the action, no button.
        let code = Steps.screen(
            try Steps.step(
                "enterPassword", payload: #"{"purpose":"signIn"}"#,
                actions: [Steps.action("submitPassword", "password", label: "Continue", fields: field)]))
        #expect(code.action("anotherMethod") == nil)
    }

    @Test func aPasswordSignInOffersForgotPasswordBeforeAnotherMethodAndCancel() throws {
        let field = #"[{"name":"password","type":"password","required":true,"label":"Password","autocomplete":"current-password"}]"#
        let password = Steps.screen(
            try Steps.step(
                "enterPassword", payload: #"{"purpose":"signIn"}"#,
                actions: [
                    Steps.action("submitPassword", "password", label: "Continue", fields: field),
                    Steps.action("forgotPassword", "forgotPassword", label: "Forgot password?"),
                    Steps.action("anotherMethod", "anotherMethod", label: "Use another method"),
                ]))
        #expect(password.primaryAction?.actionName == "submitPassword")
        #expect(password.secondaryActions.map(\.id) == ["forgotPassword", "anotherMethod", "cancel"])
        #expect(password.action("forgotPassword")?.label == "Forgot password?")
        #expect(password.action("forgotPassword")?.role == .secondary)
        // The reset's new password: a new-password input, no reset offered again.
        let newPassword = #"[{"name":"password","type":"password","required":true,"label":"Password","autocomplete":"new-password","minLength":10}]"#
        let reset = Steps.screen(
            try Steps.step(
                "enterPassword", payload: #"{"purpose":"reset","minimumLength":10}"#,
                actions: [Steps.action("submitPassword", "password", label: "Continue", fields: newPassword)]))
        #expect(reset.inputs.first?.kind == .newPassword(minimumLength: 10))
        #expect(reset.action("forgotPassword") == nil)
    }

    @Test func phoneTotpAndFormStepsAreDrawnFromTheirFields() throws {
        let phone = Steps.screen(
            try Steps.step(
                "setupSms", payload: #"{}"#,
                actions: [Steps.action("submitPhone", "phone", label: "Send a code", fields: #"[{"name":"phone","type":"phone","required":true,"label":"Phone number","autocomplete":"tel"}]"#)]))
        #expect(phone.inputs.first?.kind == .phone && phone.inputs.first?.keyboard == .phone)
        #expect(phone.primaryAction?.id == "submitPhone")

        let totp = Steps.screen(
            try Steps.step(
                "enterTotp", payload: #"{"digits":6,"period":30,"purpose":"secondFactor","attemptsRemaining":4}"#,
                actions: [Steps.action("submitTotp", "totp", label: "Continue", fields: Steps.codeField)]))
        #expect(totp.inputs.first?.kind == .code(length: 6) && totp.primaryAction?.id == "submitTotp")

        let form = Steps.screen(
            try Steps.step(
                "form", payload: #"{"formId":"profile","title":"About you"}"#,
                actions: [
                    Steps.action(
                        "submitForm", "form", label: "Continue",
                        fields: #"[{"name":"displayName","type":"text","required":true,"label":"Name"},{"name":"plan","type":"select","required":true,"label":"Plan","options":[{"value":"free","label":"Free"}]},{"name":"news","type":"checkbox","required":false,"label":"News"},{"name":"source","type":"hidden","required":false,"value":"x"}]"#)
                ]))
        #expect(form.inputs.map(\.name) == ["displayName", "plan", "news"])
        #expect(form.inputs.map(\.kind) == [.text, .choice(options: [FieldOption(value: "free", label: "Free")]), .toggle])
    }

    @Test func accountManagementListsMethodsDevicesAndOperations() throws {
        let screen = Steps.screen(
            try Steps.step(
                "manageAccount",
                payload: #"{"methods":[{"type":"emailOtp","label":"Email codes","detail":"a•••@example.com","isSecondFactor":false}],"devices":[{"id":"dev_1","name":"Ann's phone","hardwareBacked":true,"createdAt":"2026-11-24T10:00:00Z","trustedUntil":"2026-12-24T10:00:00Z"}]}"#,
                actions: [
                    Steps.action("setupTotp", "manage/setupTotp", label: "Set up an authenticator app"),
                    Steps.action(
                        "revokeDevice", "manage/revokeDevice", label: "Stop trusting a device",
                        fields: #"[{"name":"deviceId","type":"select","required":true,"label":"Device","options":[{"value":"dev_1","label":"Ann's phone"}]}]"#),
                    Steps.action("finish", "manage/finish", label: "Done"),
                ]))
        let until = ISO8601DateFormatter().date(from: "2026-12-24T10:00:00Z")!
        let trusted = "hardware key, trusted until \(until.formatted(date: .abbreviated, time: .shortened))"
        #expect(
            screen.displays == [
                .list(title: "Sign-in methods", items: [ScreenListItem(title: "Email codes", detail: "a•••@example.com")]),
                .list(title: "Trusted devices", items: [ScreenListItem(title: "Ann's phone", detail: trusted)]),
            ])
        #expect(screen.instruction == "What would you like to do?")
        #expect(screen.primaryAction?.id == "finish")
        #expect(screen.secondaryActions.map(\.id) == ["setupTotp", "revokeDevice", "cancel"])
        #expect(screen.action("revokeDevice")?.submitsInputs == true)
        #expect(screen.inputs.map(\.name) == ["deviceId"])
        #expect(screen.inputs(of: try #require(screen.action("revokeDevice"))).map(\.name) == ["deviceId"])
        #expect(screen.inputs(of: try #require(screen.action("setupTotp"))).isEmpty)
    }

    @Test func accountManagementListsWhereTheAccountIsSignedIn() throws {
        let screen = Steps.screen(
            try Steps.step(
                "manageAccount",
                payload: #"{"methods":[],"sessions":[{"id":"ses_1","application":"Shop","signedInAt":"2026-11-24T10:00:00Z","methods":["otp"],"current":true},{"id":"ses_2","application":"Shop for iPad","signedInAt":"2026-11-20T08:00:00Z","methods":["pwd"],"current":false}]}"#,
                actions: [
                    Steps.action(
                        "endSession", "manage/endSession", label: "Sign out a session",
                        fields: #"[{"name":"sessionId","type":"select","required":true,"label":"Session","options":[{"value":"ses_2","label":"Shop for iPad"}]}]"#),
                    Steps.action("endOtherSessions", "manage/endOtherSessions", label: "Sign out everywhere else"),
                    Steps.action("finish", "manage/finish", label: "Done"),
                ]))
        let day = { (text: String) in
            ISO8601DateFormatter().date(from: text)!.formatted(date: .abbreviated, time: .shortened)
        }
        #expect(
            screen.displays.last
                == .list(
                    title: "Where you are signed in",
                    items: [
                        ScreenListItem(title: "Shop", detail: "signed in \(day("2026-11-24T10:00:00Z")) · this session"),
                        ScreenListItem(title: "Shop for iPad", detail: "signed in \(day("2026-11-20T08:00:00Z"))"),
                    ]))
        #expect(screen.secondaryActions.map(\.id) == ["endSession", "endOtherSessions", "cancel"])
        #expect(screen.inputs(of: try #require(screen.action("endSession"))).map(\.name) == ["sessionId"])
    }

    @Test func anApprovalShowsTheNumberTheCodeAndTheExpiry() throws {
        let screen = Steps.screen(
            try Steps.step(
                "awaitApproval",
                payload: #"{"matchingNumber":"47","qrData":"keyway-approve:v1?x","expiresAt":"2026-11-24T10:02:00Z","pollInterval":2}"#,
                actions: [Steps.action("poll", "approval", label: "Check again")]))
        #expect(screen.displays.first == .emphasis(label: "Check that your other device shows", value: "47"))
        #expect(screen.isWaiting, "the flow moves on by itself")
        #expect(screen.countdowns.map(\.purpose) == [.approvalExpires])
        #expect(screen.inputs.isEmpty)
    }

    @Test func aStepThisSDKDoesNotKnowIsDrawnFromItsActions() throws {
        let screen = Steps.screen(
            try Steps.step(
                "pickColour",
                actions: [
                    Steps.action("submitColour", "colour", label: "Pick", fields: #"[{"name":"colour","type":"colourWheel","required":true,"label":"Colour"}]"#),
                    Steps.action("help", "help", label: "Help"),
                ]))
        #expect(screen.kind == .step(StepKind(rawValue: "pickColour")))
        #expect(screen.inputs.first?.kind == .other(FieldType(rawValue: "colourWheel")))
        #expect(screen.primaryAction?.id == "submitColour")
        #expect(screen.secondaryActions.map(\.id) == ["help", "cancel"])
    }

    @Test func errorsKeepTheInputsOrEndTheFlowAsTheirActionSays() throws {
        let step = try Steps.step(
            "enterCode",
            payload: #"{"destination":"a•••@example.com","codeLength":6,"expiresAt":"2026-11-24T10:10:00Z","resendAt":"2026-11-24T10:00:30Z","channel":"email","attemptsRemaining":5}"#,
            actions: [Steps.action("submitCode", "code", label: "Continue", fields: Steps.codeField)])
        let context = PromptContext(step: step)
        #expect(Prompt(step: step) != nil)
        let wrong = Problem(
            code: .invalidCode, status: 400, title: "Wrong code", detail: "That code is not right.", action: .retryInput,
            attemptsRemaining: 4, invalidFields: [InvalidField(name: "code", reason: "That code is not right.")])
        let retry = Screen.make(
            update: .error(code: .invalidCode, action: .retryInput, message: wrong.detail, retryable: false, details: wrong, meta: Meta(traceID: "trace-9")),
            context: context)
        #expect(retry.kind == .step(.enterCode))
        #expect(retry.inputs.first?.error == "That code is not right.")
        #expect(retry.banner?.recovery == .retry)
        #expect(retry.banner?.suggestion == "Check what you entered and try again.")
        #expect(retry.banner?.problem == wrong, "the server's problem document, for its status and times")
        #expect(retry.banner?.traceID == "trace-9")

        let waitUntil = Date(timeIntervalSince1970: 1_795_000_060)
        let busy = Problem(
            code: .rateLimited, status: 429, title: "Too many", detail: "Try again in 60 seconds.", action: .wait,
            retryable: true, retryAt: waitUntil)
        let waiting = Screen.make(
            update: .error(code: .rateLimited, action: .wait, message: busy.detail, retryable: true, details: busy, meta: nil),
            context: context)
        #expect(waiting.countdowns.contains(Countdown(.retryAvailable, waitUntil)))

        let ended = Screen.make(
            update: .error(code: .tooManyAttempts, action: .restartFlow, message: "Too many wrong codes.", retryable: false, details: nil, meta: nil),
            context: nil)
        #expect(ended.kind == .ended)
        #expect(ended.inputs.isEmpty)
        #expect(ended.secondaryActions.map(\.role) == [.restart])
        #expect(ended.banner?.recovery == .startOver)

        let aborted = Screen.make(
            update: .error(code: .unknownConfigId, action: .abort, message: "Unknown config ID.", retryable: false, details: nil, meta: nil),
            context: nil)
        #expect(aborted.kind == .ended && aborted.actions.isEmpty && aborted.banner?.recovery == .notRecoverable)

        let offline = Screen.make(
            update: .error(code: .networkError, action: .retryRequest, message: "Offline.", retryable: true, details: nil, meta: nil),
            context: nil)
        #expect(offline.kind == .idle && offline.banner?.recovery == .retry)

        let loading = Screen.make(update: .loading, context: context)
        #expect(loading.isLoading && loading.inputs.map(\.name) == ["code"])
        #expect(Screen.make(update: .idle, context: nil).kind == .idle)
    }
}
