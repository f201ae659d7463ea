import Foundation

/// Payload of a `form` step: server-defined input. The fields are those of the `submitForm` action.
public struct FormPayload: Codable, Sendable, Equatable {
    /// A stable identifier of the form (`profile`).
    public var formId: String
    /// A title to show.
    public var title: String

    /// Creates a form payload with the given values.
    ///
    /// - Parameters:
    ///   - formId: A stable identifier of the form.
    ///   - title: A title to show.
    public init(formId: String, title: String) {
        self.formId = formId
        self.title = title
    }
}
