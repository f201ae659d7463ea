import Foundation

/// Payload of a `form` step: server-defined input. The fields are those of the `submitForm` action.
public struct FormPayload: Codable, Sendable, Equatable {
    /// A stable identifier of the form (`profile`).
    public var formID: String
    /// A title to show.
    public var title: String

    /// Creates a form payload with the given values.
    ///
    /// - Parameters:
    ///   - formID: A stable identifier of the form.
    ///   - title: A title to show.
    public init(formID: String, title: String) {
        self.formID = formID
        self.title = title
    }

    private enum CodingKeys: String, CodingKey {
        case formID = "formId", title
    }
}
