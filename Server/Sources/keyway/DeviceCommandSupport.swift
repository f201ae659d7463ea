import ArgumentParser
import Foundation
import Keyway
import KeywayPowerAuthClient
import KeywayProtocol

/// What `keyway devices` and `keyway approve` share: who is signed in, and errors as sentences.
enum DeviceCommandSupport {
    /// The identifier this device is trusted under: `explicit` when given, else the email address
    /// of the stored session; `nil` when there is neither.
    static func identifier(explicit: String?, session: KeywaySession) async throws(SessionError) -> String? {
        if let explicit, !explicit.trimmingCharacters(in: .whitespaces).isEmpty { return explicit }
        return try await session.tokens()?.idToken.email
    }

    /// The human sentence for an error of the SDK: the server's problem detail with its code, the
    /// reason of a refused call, or what is missing.
    static func sentence(for error: any Error, server: String) -> String {
        switch error {
        case let error as ActivationError:
            switch error {
            case .networkFailure(let why):
                return "could not reach the Keyway server at \(server) (\(why)). Is it running? [\(error.code)]"
            default: return "\(error.description) [\(error.code)]"
            }
        case let error as SessionError:
            return "\(error)\(error == .noAccessTokenPresent ? " Run keyway login first." : "")"
        case let error as KeywayError:
            switch error {
            case .problem(let problem): return "\(problem.detail) [\(problem.code.rawValue)]"
            case .invalidConfiguration(let why): return why
            case .networkFailure(let why): return "could not reach the Keyway server at \(server) (\(why)). Is it running?"
            default: return String(describing: error)
            }
        default:
            return String(describing: error)
        }
    }

    /// Runs a command's work: its own refusals (`ValidationError`, `ExitCode`) end it as they are;
    /// any other failure is reported as a sentence on standard error (exit status 1).
    static func running(terminal: Terminal, server: String, _ work: () async throws -> Void) async throws {
        do {
            try await work()
        } catch let error as ValidationError {
            throw error
        } catch let error as ExitCode {
            throw error
        } catch {
            throw fail(error, terminal: terminal, server: server)
        }
    }

    /// Reports `error` on standard error and fails the command (exit status 1).
    static func fail(_ error: any Error, terminal: Terminal, server: String) -> ExitCode {
        terminal.status("Error: \(sentence(for: error, server: server))")
        return ExitCode.failure
    }
}
