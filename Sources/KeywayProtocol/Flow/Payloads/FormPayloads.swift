import Foundation

/// Payload of a `form` step: server-defined input. The fields are those of the `submitForm` action.
public struct FormPayload: Codable, Sendable, Equatable {
    /// A stable identifier of the form (`profile`).
    public var formId: String
    /// A title to show.
    public var title: String

    public init(formId: String, title: String) {
        self.formId = formId
        self.title = title
    }
}
