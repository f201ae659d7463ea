import Foundation
import KeywayJOSE
import KeywayProtocol
import Testing

@testable import KeywayServer

@Suite("Flow state: versioned, tolerant of missing and unknown members, converted from the format before versions")
struct FlowProgressCodingTests {
    func decode(_ json: String) throws -> FlowProgress {
        try JSONDecoder().decode(FlowProgress.self, from: Data(json.utf8))
    }

    func roundTrip(_ progress: FlowProgress) throws -> FlowProgress {
        try JSONDecoder().decode(FlowProgress.self, from: JSONEncoder().encode(progress))
    }

    @Test func everyModeAndStageRoundTripsWithItsVersion() throws {
        var draft = FlowProgress.SignUpDraft(profile: ["displayName": "Ann"], sealedInviteCode: "v1.x")
        try draft.keep(PasswordCredential(hash: "h"), for: .password)
        try draft.keep(AuthenticatorCredential(sealedSecret: "v1.t", counter: 7), for: .totp)
        try draft.keep(PhoneCredential(phone: "+14155550123"), for: .smsOtp)
        var signUp = FlowProgress(mode: .signUp(draft), stage: .form)
        signUp.prove(.emailOtp, role: .primary, amr: "otp", at: 1)
        signUp.prove(.password, role: .credential, amr: "pwd", at: 2)
        signUp.enrolmentOffered = true
        signUp.failures = ["password": 2]
        signUp.client = FlowProgress.ClientDescription(deviceHint: DeviceHint(deviceID: "dev_1", canEnrol: true), userAgent: "UA")
        signUp.trustedDevice = TrustedDeviceProgress(checked: true, enrolOffered: true)
        signUp.notice = "totpAdded"
        signUp.risk = Risk(level: "medium", message: "New device", reasons: ["newDevice"])
        #expect(try roundTrip(signUp) == signUp)

        let stages: [FlowProgress.Stage] = [
            .choosing(MethodChoice(options: [.emailOtp, .password], purpose: .primary, skippable: false)),
            .method(try ActiveMethod(.smsOtp, purpose: .enrolment, state: CodeStage(destination: "+14155550123"))),
            .method(try ActiveMethod(.deviceApproval, purpose: .secondFactor, state: ApprovalStage(approvalId: "apr", expiresAt: 5))),
            .form, .manageAccount,
        ]
        for stage in stages {
            let manage = FlowProgress(
                mode: .manage(FlowProgress.Management(grantedScope: "openid", pendingOperation: "finish")), stage: stage)
            #expect(try roundTrip(manage) == manage)
        }
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(signUp)) as! [String: Any]
        #expect(object["version"] as? Int == FlowProgress.formatVersion)
        #expect(object["mode"] as? String == "signUp")
    }

    @Test func aPendingUpstreamIdentityRoundTripsAndIsAbsentFromOlderDocuments() throws {
        var linking = FlowProgress(
            mode: .signIn(FlowProgress.SignIn()),
            stage: .method(
                try ActiveMethod(
                    AuthenticationMethod(rawValue: "federation:acme"), purpose: .primary,
                    state: FederationStage(linking: true))))
        linking.pendingFederation = PendingFederation(providerId: "acme", sealedIdentity: "v1.sealed", userId: "usr_1")
        let read = try roundTrip(linking)
        #expect(read == linking)
        #expect(read.pendingFederation?.userId == "usr_1")
        var signUp = FlowProgress(mode: .signUp(FlowProgress.SignUpDraft()), stage: .form)
        signUp.pendingFederation = PendingFederation(providerId: "acme", sealedIdentity: "v1.sealed", userId: nil)
        #expect(try roundTrip(signUp) == signUp)
        let older = try decode(#"{"version":1,"mode":"signIn","stage":{"kind":"form"}}"#)
        #expect(older.pendingFederation == nil)
    }

    @Test func missingMembersTakeTheirDefaults() throws {
        let progress = try decode(#"{"version":1,"mode":"signIn","stage":{"kind":"method","method":"totp"}}"#)
        #expect(progress.mode == .signIn(FlowProgress.SignIn()))
        #expect(progress.stage == .method(ActiveMethod(method: .totp, purpose: .primary, rawState: .object([:]))))
        #expect(progress.proofs.isEmpty)
        #expect(progress.failures.isEmpty)
        #expect(progress.client == FlowProgress.ClientDescription() && progress.trustedDevice == TrustedDeviceProgress())
        #expect(progress.methodState.isEmpty)
        #expect(!progress.secondFactorSkipped && !progress.enrolmentOffered)
        #expect(progress.notice == nil && progress.risk == nil)
        // The module's state decodes from an empty object too.
        if case .method(let active) = progress.stage {
            #expect(try active.state(as: AuthenticatorStage.self) == AuthenticatorStage())
            #expect(try active.state(as: CodeStage.self) == CodeStage())
            #expect(try active.state(as: ApprovalStage.self) == ApprovalStage())
            #expect(try active.state(as: TrustedDeviceStage.self) == TrustedDeviceStage())
            #expect(try active.state(as: PasswordStage.self) == PasswordStage())
        }
        let choosing = try decode(#"{"version":1,"mode":"signUp","stage":{"kind":"choosing","choice":{}},"device":{}}"#)
        #expect(choosing.stage == .choosing(MethodChoice(options: [], purpose: .primary, skippable: false)))
        #expect(choosing.signUpDraft == FlowProgress.SignUpDraft())
    }

    @Test func aFlowOfTheHostedPagesKeepsItsMarkAndAnOlderDocumentHasNone() throws {
        var hosted = FlowProgress(mode: .signIn(FlowProgress.SignIn()), stage: .form)
        hosted.authorization = FlowProgress.AuthorizationParameters(hostedPages: true)
        #expect(try roundTrip(hosted).authorization?.hostedPages == true)
        let older = try decode(
            #"{"version":1,"mode":"signIn","stage":{"kind":"form"},"authorization":{"redirectURI":"com.example.app:/cb"}}"#)
        #expect(older.authorization?.redirectURI == "com.example.app:/cb")
        #expect(older.authorization?.hostedPages == nil)
    }

    @Test func unknownMembersAreIgnoredAndANewerVersionReadsWhatItKnows() throws {
        let progress = try decode(
            #"""
            {"version":3,"mode":"manage","manage":{"grantedScope":"openid","later":1},"laterFlag":true,
             "stage":{"kind":"manageAccount","extra":{}},"proofs":[{"method":"passkey","role":"stepUp","amr":"hwk","at":5,"x":1}],
             "methods":{"trustedDevice":{"checked":true,"pending":{"id":"dev_1"}},"smartcard":{"x":1}},"risk":{"level":"high"}}
            """#)
        #expect(progress.management == FlowProgress.Management(grantedScope: "openid"))
        #expect(progress.stage == .manageAccount)
        // An unknown role counts for nothing: neither primary nor second factor.
        #expect(progress.proofs == [Proof(method: AuthenticationMethod(rawValue: "passkey"), role: .credential, amr: "hwk", at: 5)])
        #expect(!progress.primaryDone && !progress.secondFactorDone)
        // A device waiting to be written that cannot be read is dropped, not fatal.
        #expect(progress.trustedDevice.checked && progress.trustedDevice.pending == nil)
        // A method this release does not know keeps its entry untouched.
        #expect(progress.methodState["smartcard"] == .object(["x": .number(1)]))
        #expect(progress.risk == Risk(level: "high"))
    }

    // MARK: Format 1

    @Test func aFormatOneDocumentHasItsMethodMembersMoved() throws {
        let signIn = try decode(
            #"""
            {"version":1,"mode":"signIn","signIn":{"resetsPassword":true},"stage":{"kind":"form"},
             "device":{"hint":{"deviceId":"dev_1","canEnrol":true},"userAgent":"UA","checked":true,"enrolOffered":true,
                       "pending":{"id":"dev_2"}},
             "federation":{"providerId":"acme","sealedIdentity":"v1.sealed","userId":"usr_1"}}
            """#)
        #expect(
            signIn.client == FlowProgress.ClientDescription(deviceHint: DeviceHint(deviceID: "dev_1", canEnrol: true), userAgent: "UA"))
        // The unreadable pending device is dropped, as format 1 did.
        #expect(signIn.trustedDevice == TrustedDeviceProgress(checked: true, enrolOffered: true))
        #expect(signIn.pendingFederation == PendingFederation(providerId: "acme", sealedIdentity: "v1.sealed", userId: "usr_1"))
        #expect(signIn.resetsPassword)
        // Written again, it is format 2 with the same meaning.
        let written = try JSONSerialization.jsonObject(with: JSONEncoder().encode(signIn)) as! [String: Any]
        #expect(written["version"] as? Int == 2 && written["device"] == nil && written["federation"] == nil)
        #expect(try roundTrip(signIn) == signIn)

        let manage = try decode(
            #"""
            {"version":1,"mode":"manage","manage":{"pendingOperation":"unlinkIdentity","pendingIdentityId":"fid_1"},
             "stage":{"kind":"choosing","choice":{"purpose":"reverification"}}}
            """#)
        #expect(manage.management?.pendingInput == .object(["identityId": .string("fid_1")]))
        let both = try decode(
            #"""
            {"version":1,"mode":"manage","manage":{"pendingOperation":"unlinkIdentity","pendingIdentityId":"fid_1",
             "pendingInput":{"identityId":"fid_2"}},"stage":{"kind":"manageAccount"}}
            """#)
        #expect(both.management?.pendingInput == .object(["identityId": .string("fid_2")]))
        // A reset's new password is due only in a sign-in.
        var signUp = FlowProgress(mode: .signUp(FlowProgress.SignUpDraft()), stage: .form)
        signUp.resetsPassword = true
        #expect(!signUp.resetsPassword && signUp.methodState.isEmpty)
    }

    @Test func aMethodsStateAtItsInitialValueIsStoredAsNothing() throws {
        var progress = FlowProgress(mode: .signIn(FlowProgress.SignIn()), stage: .form)
        progress.trustedDevice.checked = true
        progress.pendingFederation = PendingFederation(providerId: "acme", sealedIdentity: "v1.s", userId: nil)
        #expect(progress.methodState.keys.sorted() == [FederationMethod.family.id.rawValue, "trustedDevice"])
        progress.trustedDevice = TrustedDeviceProgress()
        progress.pendingFederation = nil
        #expect(progress.methodState.isEmpty)
        // What this release cannot read reads as the initial value.
        progress.methodState["trustedDevice"] = .string("later")
        #expect(progress.trustedDevice == TrustedDeviceProgress())
    }

    @Test func aStageThisReleaseDoesNotKnowIsAnError() {
        #expect(throws: DecodingError.self) {
            try decode(#"{"version":1,"mode":"signIn","stage":{"kind":"passkeyCeremony"}}"#)
        }
        #expect(throws: DecodingError.self) { try decode(#"{"version":1,"mode":"signIn"}"#) }
        // A method this server does not run reads, and the server's registry refuses it (the
        // engine answers "not found" for such a flow).
        #expect(throws: UnreadableFlowProgress.self) {
            try MethodRegistry.standard.check(
                try decode(#"{"version":1,"mode":"signIn","stage":{"kind":"method","method":"smartcard"}}"#))
        }
    }

    @Test func provenFactsDeriveFromTheProofs() {
        var progress = FlowProgress(mode: .signIn(FlowProgress.SignIn()), stage: .form)
        #expect(!progress.primaryDone && progress.primaryMethod == nil && progress.amr.isEmpty)
        progress.prove(.password, role: .primary, amr: "pwd", at: 1)
        progress.prove(.password, role: .reverification, amr: "pwd", at: 2)
        #expect(progress.primaryDone && progress.primaryMethod == .password && !progress.secondFactorDone)
        #expect(progress.amr == ["pwd"])
        #expect(progress.reverifiedAt == 2)
        progress.prove(.trustedDevice, role: .secondFactor, amr: "hwk", at: 3)
        progress.prove(.totp, role: .secondFactor, amr: "otp", at: 4)
        #expect(progress.secondFactorDone && progress.deviceProven)
        #expect(progress.amr == ["pwd", "hwk", "otp", "mfa"])
    }

    // MARK: The format before versions

    @Test func aSignUpWithAnAuthenticatorProvenConvertsToItsDraft() throws {
        let progress = try decode(
            #"""
            {"mode":"signUp","stage":"selectMethod","purpose":"enrolment","options":["smsOtp"],"skippable":true,
             "primaryDone":true,"primaryMethod":"emailOtp","amr":["otp","pwd","otp"],"secondFactorDone":true,
             "pendingPasswordHash":"h","profile":{"displayName":"Ann"},"sealedInviteCode":"v1.i",
             "pendingTotpSecret":"v1.t","pendingTotpCounter":9,"enrolmentOffered":true,"passwordFailures":0,
             "totpFailures":1,"deviceChecked":false,"deviceProven":false,"deviceEnrolOffered":false,
             "createdUser":false,"secondFactorSkipped":false}
            """#)
        let draft = try #require(progress.signUpDraft)
        #expect(draft.profile == ["displayName": "Ann"] && draft.sealedInviteCode == "v1.i")
        #expect(draft.credential(.password, as: PasswordCredential.self) == PasswordCredential(hash: "h"))
        #expect(
            draft.credential(.totp, as: AuthenticatorCredential.self)
                == AuthenticatorCredential(sealedSecret: "v1.t", counter: 9))
        #expect(draft.credentials.count == 2)
        #expect(progress.stage == .choosing(MethodChoice(options: [.smsOtp], purpose: .enrolment, skippable: true)))
        #expect(progress.primaryMethod == .emailOtp && progress.secondFactorDone)
        #expect(progress.amr == ["otp", "pwd", "mfa"])
        #expect(progress.failures == ["totp": 1])
        #expect(progress.enrolmentOffered)
        // Written back, it is the current format.
        let again = try roundTrip(progress)
        #expect(again == progress)
    }

    @Test func aSignUpSettingUpAPhoneKeepsTheNumberInItsCodeStage() throws {
        let progress = try decode(
            #"""
            {"mode":"signUp","stage":"enterCode","purpose":"enrolment","codeChannel":"sms",
             "codeDestination":"+14155550123","pendingPhone":"+14155550123","primaryDone":true,"amr":["otp","pwd"]}
            """#)
        #expect(progress.signUpDraft?.credentials.isEmpty == true, "not proven yet")
        #expect(
            progress.stage
                == .method(try ActiveMethod(.smsOtp, purpose: .enrolment, state: CodeStage(destination: "+14155550123"))))
        #expect(!progress.secondFactorDone)
        #expect(progress.amr == ["otp", "pwd"])
    }

    @Test func deviceAndApprovalStagesConvertWithTheirState() throws {
        let approval = try decode(
            #"""
            {"mode":"signIn","stage":"awaitApproval","purpose":"secondFactor","primaryDone":true,"primaryMethod":"emailOtp",
             "amr":["otp"],"approvalId":"apr_1","sealedApprovalSecret":"v1.s","matchingNumber":"42",
             "approvalExpiresAt":1795000600000,"lastPolledAt":1795000001000,
             "deviceHint":{"canEnrol":false},"userAgent":"UA"}
            """#)
        #expect(
            approval.stage
                == .method(
                    try ActiveMethod(
                        .deviceApproval, purpose: .secondFactor,
                        state: ApprovalStage(
                            approvalId: "apr_1", sealedSecret: "v1.s", matchingNumber: "42", expiresAt: 1_795_000_600_000,
                            lastPolledAt: 1_795_000_001_000))))
        #expect(approval.client.userAgent == "UA" && approval.client.deviceHint?.canEnrol == false)

        let challenge = try decode(
            #"""
            {"mode":"signIn","stage":"deviceChallenge","purpose":"primary","deviceChallenge":"c1",
             "deviceHint":{"deviceId":"dev_1","canEnrol":true}}
            """#)
        #expect(
            challenge.stage
                == .method(try ActiveMethod(.trustedDevice, purpose: .primary, state: TrustedDeviceStage(challenge: "c1"))))

        let proven = try decode(
            #"""
            {"mode":"signIn","stage":"deviceEnroll","purpose":"enrolment","deviceChallenge":"c2","primaryDone":true,
             "primaryMethod":"password","amr":["pwd","hwk"],"secondFactorDone":true,"deviceProven":false,
             "deviceEnrolOffered":false}
            """#)
        #expect(
            proven.stage
                == .method(
                    try ActiveMethod(.trustedDevice, purpose: .enrolment, state: TrustedDeviceStage(challenge: "c2", enrolling: true))))
        #expect(proven.proofs.map(\.method) == [.password, .deviceApproval])
        #expect(proven.amr == ["pwd", "hwk", "mfa"])
    }

    @Test func aManagementFlowKeepsItsScopeOperationAndVerification() throws {
        let progress = try decode(
            #"""
            {"mode":"manage","stage":"enterPassword","purpose":"reverification","passwordPurpose":"change",
             "primaryDone":true,"amr":[],"grantedScope":"openid email","pendingOperation":"finish",
             "reverifiedAt":1795000000000,"notice":"totpAdded"}
            """#)
        #expect(progress.management == FlowProgress.Management(grantedScope: "openid email", pendingOperation: "finish"))
        #expect(
            progress.stage
                == .method(try ActiveMethod(.password, purpose: .reverification, state: PasswordStage(purpose: .change))))
        #expect(progress.reverifiedAt == 1_795_000_000_000)
        #expect(progress.notice == "totpAdded")
        #expect(progress.amr.isEmpty)
    }

    @Test func theEarliestDocumentsConvertWithDefaults() throws {
        // Only the members every release wrote.
        let progress = try decode(#"{"mode":"signIn","stage":"enterCode","purpose":"primary"}"#)
        #expect(progress.stage == .method(try ActiveMethod(.emailOtp, purpose: .primary, state: CodeStage())))
        #expect(progress.proofs.isEmpty)
    }
}
