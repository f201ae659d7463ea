import Foundation
import Keyway
import KeywayProtocol

/// The server-defined form, rendered from its fields alone.
extension FlowSession {
    func answerForm(title: String, fields: [Field]) async -> Bool {
        terminal.status(title)
        guard let values = FieldReader(terminal: terminal).values(for: fields, errors: fieldErrors) else {
            await flow.cancel()
            terminal.status("Cancelled.")
            return false
        }
        await flow.submitForm(values)
        return true
    }
}
