import Foundation
import KeywayProtocol

/// The two ends of a password reset (``PasswordResetMethod``): starting it from a password
/// sign-in step, and setting the new password.
extension FlowEngine {
    /// Answers `forgotPassword` on a password sign-in step: a code to the identifier, on a code
    /// step of its own. Wrong passwords stay counted.
    func forgotPassword(_ target: Target) async throws -> Step {
        try await run(target) { context, repositories in
            guard PasswordResetMethod.isOffered(context) else { throw FlowProblem.invalidStep }
            try await self.begin(.passwordReset, purpose: .primary, &context, in: repositories)
            return nil
        }
    }

    /// Sets the new password `hash` of a reset — the code and the second factor given — in the
    /// request's transaction: every other session of the account ends (its refresh tokens,
    /// sessions and hosted-page browser sessions: whoever knew the old password is signed out),
    /// and the sign-in goes on to its completion.
    func finishPasswordReset(hash: String, _ context: inout Context, in repositories: Repositories) async throws
        -> FlowProblem?
    {
        guard var user = context.user, context.progress.signIn?.resetsPassword == true else {
            throw FlowProblem.invalidStep
        }
        if user.isBlocked {
            context.flow.state = .failed
            return .userBlocked
        }
        user.passwordHash = hash
        try await repositories.users.updateMethods(user)
        context.user = user
        try await repositories.endSessions(userId: user.id, at: context.now)
        context.progress.signIn?.resetsPassword = false
        context.progress.notice = "passwordReset"
        logger.notice("password reset", metadata: ["user": "\(user.id)", "flow": "\(context.flow.id)"])
        return try await advance(&context, in: repositories)
    }
}
