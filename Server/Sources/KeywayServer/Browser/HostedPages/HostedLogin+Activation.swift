import Foundation
import Hummingbird
import KeywayProtocol

/// The user's PowerAuth activations in this application on the hosted account page. A code for
/// another device is made only by the account-management step's operation, after a fresh
/// verification, where the application uses device activation (``FlowEngine/activationCodeOperation``).
extension HostedLogin {
    /// Adds the activations.
    func activationExtras(_ page: inout HostedPage, visit: Visit, userId: String, strings: HostedStrings) async throws {
        let list = try await activations.list(userId: userId, configId: visit.application.configId)
        let items = list.activations.filter { $0.status != "REMOVED" && $0.status != "CREATED" }.map { activation in
            HostedListItem(
                title: activation.name ?? strings("activation.unnamed"),
                detail: strings(
                    "activation.detail",
                    [
                        "status": strings("activation.status.\(activation.status)"),
                        "fingerprint": activation.fingerprint ?? "–",
                    ]),
                form: nil)
        }
        // Into the section of the account step that makes a code for another device, when it has one.
        let section = strings("activation.section", ["application": visit.application.name])
        if let index = page.displays.firstIndex(where: { if case .list(section, _, _) = $0 { true } else { false } }),
            case .list(let label, _, let actions) = page.displays[index]
        {
            page.displays[index] = .list(label: label, items: items, actions: actions)
        } else if !items.isEmpty {
            page.displays.append(.list(label: strings("activation.listed"), items: items))
        }
    }

    /// An RFC 3339 time as `HH:mm UTC`.
    static func clockTime(_ rfc3339: String) -> String {
        guard let date = ISO8601DateFormatter().date(from: rfc3339) else { return rfc3339 }
        return clockTime(date)
    }

    /// A time as `HH:mm UTC`.
    static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}
