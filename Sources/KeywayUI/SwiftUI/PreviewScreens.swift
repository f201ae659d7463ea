#if DEBUG && canImport(Observation)
    import Foundation
    import Keyway
    import KeywayProtocol

    /// The screens of the previews, made as an app gets them: a step as the server sends it, drawn
    /// by ``Screen/make(update:context:language:screens:)`` in the language asked for. Built on every
    /// platform in debug builds, so a test makes each of them (a preview whose step did not decode
    /// would show nothing).
    enum PreviewScreens {
        /// Every screen, by name.
        static func all(in language: ScreenLanguage) -> [(name: String, screen: Screen)] {
            [
                ("Code", code(language)), ("Wrong code", wrongCode(language)), ("Sign-in link", signInLink(language)),
                ("Method choice", methods(language)), ("Password", password(language)),
                ("New password", newPassword(language)), ("Authenticator", authenticator(language)),
                ("Approval", approval(language)), ("Passkey", passkey(language)), ("Account", account(language)),
                ("Waiting for the server", loading(language)),
            ]
        }

        static func code(_ language: ScreenLanguage) -> Screen {
            screen(
                "enterCode",
                payload:
                    #"{"destination":"a•••@example.com","codeLength":6,"expiresAt":"\#(moment(600))","resendAt":"\#(moment(30))","channel":"email","attemptsRemaining":5}"#,
                actions: [action("submitCode", "Continue", fields: codeField), action("resend", "Send a new code")],
                messages: #"[{"level":"info","code":"codeSent","text":"We sent a 6-digit code to a•••@example.com."}]"#,
                language: language)
        }

        static func wrongCode(_ language: ScreenLanguage) -> Screen {
            let step = step(
                "enterCode",
                payload:
                    #"{"destination":"a•••@example.com","codeLength":6,"expiresAt":"\#(moment(600))","resendAt":"\#(moment(-1))","channel":"email","attemptsRemaining":2}"#,
                actions: [action("submitCode", "Continue", fields: codeField), action("resend", "Send a new code")])
            let context = PromptContext(step: step)
            let problem = Problem(
                code: .invalidCode, status: 400, title: "Wrong code", detail: "That code is not right.",
                action: .retryInput,
                retryable: true, attemptsRemaining: 2,
                invalidFields: [InvalidField(name: "code", reason: "That code is not right.")])
            return Screen.make(
                update: .error(
                    code: .invalidCode, action: .retryInput,
                    message: "That code is not right. You have 2 attempts left.",
                    retryable: true, details: problem, meta: nil),
                context: context, language: language)
        }

        static func signInLink(_ language: ScreenLanguage) -> Screen {
            screen(
                "enterCode",
                payload:
                    #"{"destination":"a•••@example.com","codeLength":6,"expiresAt":"\#(moment(600))","resendAt":"\#(moment(30))","channel":"email","attemptsRemaining":5,"linkSent":true}"#,
                actions: [action("submitCode", "Continue", fields: codeField)], language: language)
        }

        static func methods(_ language: ScreenLanguage) -> Screen {
            screen(
                "selectMethod",
                payload:
                    #"{"methods":[{"id":"totp","type":"totp","label":"Authenticator app"},{"id":"smsOtp","type":"smsOtp","label":"SMS codes","destination":"+1••••••••23"}],"purpose":"secondFactor","skippable":true}"#,
                actions: [
                    action(
                        "selectMethod", "Continue", fields: #"[{"name":"methodId","type":"select","required":true}]"#),
                    action("skip", "Not now"),
                ], language: language)
        }

        static func password(_ language: ScreenLanguage) -> Screen {
            screen(
                "enterPassword", payload: #"{"purpose":"signIn"}"#,
                actions: [
                    action(
                        "submitPassword", "Continue",
                        fields:
                            #"[{"name":"password","type":"password","required":true,"label":"Password","autocomplete":"current-password"}]"#
                    ),
                    action("forgotPassword", "Forgot password?"), action("anotherMethod", "Use another method"),
                ], language: language)
        }

        static func newPassword(_ language: ScreenLanguage) -> Screen {
            screen(
                "enterPassword", payload: #"{"purpose":"create","minimumLength":10}"#,
                actions: [
                    action(
                        "submitPassword", "Continue",
                        fields:
                            #"[{"name":"password","type":"password","required":true,"label":"Choose a password","autocomplete":"new-password","minLength":10}]"#
                    )
                ], info: "Choose a password", language: language)
        }

        static func authenticator(_ language: ScreenLanguage) -> Screen {
            screen(
                "setupTotp",
                payload:
                    #"{"secret":"JBSWY3DPEHPK3PXP","otpauthUrl":"otpauth://totp/Shop:ada@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Shop","period":30,"digits":6,"algorithm":"SHA1"}"#,
                actions: [action("submitTotp", "Verify", fields: codeField)], language: language)
        }

        static func approval(_ language: ScreenLanguage) -> Screen {
            screen(
                "awaitApproval",
                payload:
                    #"{"matchingNumber":"47","qrData":"keyway-approve:v1?preview","expiresAt":"\#(moment(120))","pollInterval":2}"#,
                actions: [action("poll", "Check again")], language: language)
        }

        static func passkey(_ language: ScreenLanguage) -> Screen {
            screen(
                "passkeyRegister",
                payload:
                    #"{"options":{"rp":{"id":"example.com","name":"Shop"},"user":{"id":"dXNyXzE","name":"ada@example.com","displayName":"Ada"},"challenge":"Y2hhbGxlbmdl","pubKeyCredParams":[{"type":"public-key","alg":-7}],"excludeCredentials":[],"authenticatorSelection":{"residentKey":"required","requireResidentKey":true,"userVerification":"required"},"attestation":"none"},"purpose":"enrolment"}"#,
                actions: [action("registerPasskey", "Create a passkey"), action("skip", "Not now")], language: language)
        }

        static func account(_ language: ScreenLanguage) -> Screen {
            screen(
                "manageAccount",
                payload:
                    #"{"methods":[{"type":"emailOtp","label":"Email codes","detail":"ada@example.com","isSecondFactor":false},{"type":"totp","label":"Authenticator app","isSecondFactor":true}],"devices":[{"id":"dev_1","name":"Ada's iPhone","hardwareBacked":true,"createdAt":"\#(moment(-86400))","trustedUntil":"\#(moment(2_592_000))"}],"sessions":[{"id":"ses_1","application":"Shop","signedInAt":"\#(moment(-60))","methods":["otp"],"current":true},{"id":"ses_2","application":"Shop for iPad","signedInAt":"\#(moment(-172_800))","methods":["pwd"],"current":false}]}"#,
                actions: [
                    action("setupTotp", "Set up an authenticator app"),
                    action("endOtherSessions", "Sign out everywhere else"),
                    action("finish", "Done"),
                ], info: "Your sign-in methods", language: language)
        }

        static func loading(_ language: ScreenLanguage) -> Screen {
            var screen = code(language)
            screen.isLoading = true
            return screen
        }

        // MARK: Steps as the server sends them

        static let codeField =
            #"[{"name":"code","type":"code","required":true,"label":"Code","autocomplete":"one-time-code","minLength":6,"maxLength":6,"pattern":"^[0-9]{6}$"}]"#

        /// The time `seconds` from now, as the wire writes it.
        static func moment(_ seconds: TimeInterval) -> String {
            ISO8601DateFormatter().string(from: Date().addingTimeInterval(seconds))
        }

        static func action(_ name: String, _ label: String, fields: String = "[]") -> String {
            #"{"name":"\#(name)","href":"/v1/flows/flw_preview/\#(name)","method":"POST","label":"\#(label)","fields":\#(fields)}"#
        }

        static func step(
            _ kind: String, payload: String, actions: [String], messages: String = "[]", info: String? = nil
        ) -> Step {
            let cancel =
                #"{"name":"cancel","href":"/v1/flows/flw_preview","method":"DELETE","label":"Cancel","fields":[]}"#
            let infoPart = info.map { #","stepInfo":{"id":"preview","label":"\#($0)"}"# } ?? ""
            let json = """
                {"flowId":"flw_preview","kind":"\(kind)","\(kind)":\(payload)\(infoPart),"actions":[\((actions + [cancel]).joined(separator: ","))],
                "links":[],"messages":\(messages),"meta":{"traceId":"preview"}}
                """
            do {
                return try WireCoding.makeDecoder().decode(Step.self, from: Data(json.utf8))
            } catch {
                preconditionFailure("The preview step \(kind) does not decode: \(error)")
            }
        }

        static func screen(
            _ kind: String, payload: String, actions: [String], messages: String = "[]", info: String? = nil,
            language: ScreenLanguage
        ) -> Screen {
            let step = step(kind, payload: payload, actions: actions, messages: messages, info: info)
            let context = PromptContext(step: step)
            let prompt = Prompt(step: step) ?? .unrecognized(kind: step.kind)
            return Screen.make(update: .prompt(context, prompt), context: context, language: language)
        }

        /// A model showing `screen`, for a preview.
        @MainActor
        static func model(_ screen: Screen) -> KeywayScreenModel {
            // A placeholder server: previews never send a request.
            let keyway = try? KeywayClient(configID: "cfg_preview", baseURL: URL(string: "https://auth.example.com")!)
            let model = KeywayScreenModel(keyway: keyway!, language: screen.language)
            model.screen = screen
            return model
        }
    }
#endif
