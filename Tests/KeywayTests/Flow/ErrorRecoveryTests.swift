import Foundation
import Keyway
import KeywayProtocol
import Testing

@Suite("Every SDK error says whether to retry, start over or give up, in words for people")
struct ErrorRecoveryTests {
    func check(_ error: any KeywayRecoverableError, _ recovery: KeywayErrorRecovery, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error.recovery == recovery, sourceLocation: sourceLocation)
        #expect(error.errorDescription?.isEmpty == false, sourceLocation: sourceLocation)
        #expect((error as any Error).localizedDescription == error.errorDescription, sourceLocation: sourceLocation)
    }

    @Test func sdkErrors() {
        check(KeywayError.invalidConfiguration("no config ID"), .notRecoverable)
        check(KeywayError.networkFailure("offline"), .retry)
        check(KeywayError.invalidResponse("HTML"), .retry)
        check(KeywayError.storageUnavailable("locked"), .retry)
        check(KeywayError.invalidIDToken("bad signature"), .startOver)
        check(KeywayError.oauth(status: 400, error: OAuthErrorResponse(error: "invalid_grant", errorDescription: nil)), .startOver)
        check(KeywayError.oauth(status: 503, error: OAuthErrorResponse(error: "temporarily_unavailable", errorDescription: nil)), .retry)
        check(KeywayError.oauth(status: 401, error: OAuthErrorResponse(error: "invalid_client", errorDescription: nil)), .notRecoverable)
        let expired = Problem(code: .flowExpired, status: 410, title: "Flow expired", detail: "Start again.", action: .restartFlow)
        check(KeywayError.problem(expired), .startOver)
        #expect(KeywayError.problem(expired).recoverySuggestion == "Start signing in again.")
    }

    @Test func sessionStorageProfileAndFlowErrors() {
        check(SessionError.noAccessTokenPresent, .startOver)
        check(SessionError.invalidRefreshToken("reused"), .startOver)
        check(SessionError.networkConnectionFailure("offline"), .retry)
        check(SessionError.serverError("500"), .retry)
        check(SessionError.storageUnavailable("locked"), .retry)
        check(SecureStorageError.unavailable("locked"), .retry)
        check(SecureStorageError.unreadable("wrong key"), .startOver)
        check(UserProfileError.encryptionKeyMissing(field: "taxId"), .notRecoverable)
        check(FlowError(code: .invalidCode, action: .retryInput, message: "Wrong code."), .retry)
        check(FlowError(code: .tooManyAttempts, action: .restartFlow, message: "Too many."), .startOver)
        check(FlowError(code: .unknownConfigId, action: .abort, message: "Unknown config ID."), .notRecoverable)
        #expect(SessionError.noAccessTokenPresent.recoverySuggestion == "Sign in again.")
    }
}
