import Foundation
import KeywayProtocol

/// The settings of sign-in links (`signInLink` in the policy): the channels links go by and the
/// address they open.
public struct SignInLinkSettings: Codable, Sendable, Equatable {
    /// The channels a link goes by: `email` for an email identifier, `sms` for a phone number
    /// (where the application has SMS delivery, ``DeliverySettings/sms``, or in dev mode).
    public var channels: [CodeChannel]
    /// The `https` URL a link opens, the token appended as a last path segment: the app's
    /// universal link, or `nil` for the server's own page (`<issuer>/link`).
    public var linkBase: String?
    /// Seconds between polls of the step while a link may be approved on another device (1–30).
    public var pollIntervalSeconds: Int

    public init(channels: [CodeChannel] = [.email], linkBase: String? = nil, pollIntervalSeconds: Int = 2) {
        self.channels = channels
        self.linkBase = linkBase
        self.pollIntervalSeconds = pollIntervalSeconds
    }

    private enum CodingKeys: String, CodingKey { case channels, linkBase, pollIntervalSeconds }

    /// Decodes settings; missing fields take the defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        channels = try container.decodeIfPresent([CodeChannel].self, forKey: .channels) ?? [.email]
        linkBase = try container.decodeIfPresent(String.self, forKey: .linkBase)
        pollIntervalSeconds = try container.decodeIfPresent(Int.self, forKey: .pollIntervalSeconds) ?? 2
    }

    /// The problems of these settings, for a policy that lists `signInLink`; `smsDelivery` tells
    /// whether SMS can go out (a webhook, or dev mode's outbox).
    func problems(smsDelivery: Bool) -> [PolicyProblem] {
        var problems: [PolicyProblem] = []
        if channels.isEmpty {
            problems.append(
                PolicyProblem(
                    code: "sign_in_link_no_channel", field: "signInLink.channels",
                    message: "List at least one channel for sign-in links: email, sms."))
        }
        for (index, channel) in channels.enumerated() where channel != .email && channel != .sms {
            problems.append(
                PolicyProblem(
                    code: "sign_in_link_channel_unsupported", field: "signInLink.channels[\(index)]",
                    message: "\(channel.rawValue.debugDescription) cannot carry sign-in links; use email or sms."))
        }
        if channels.contains(.sms), !smsDelivery {
            problems.append(
                PolicyProblem(
                    code: "sms_delivery_missing", field: "delivery.sms",
                    message: "Sign-in links by SMS need SMS delivery outside dev mode: configure delivery.sms with a webhook."))
        }
        if Set(channels).count != channels.count {
            problems.append(
                PolicyProblem(
                    code: "sign_in_link_duplicate_channel", field: "signInLink.channels",
                    message: "Each channel may be listed once."))
        }
        if let linkBase {
            let components = URLComponents(string: linkBase)
            if components?.scheme?.lowercased() != "https" || (components?.host ?? "").isEmpty
                || components?.query != nil || components?.fragment != nil || linkBase.count > 500
            {
                problems.append(
                    PolicyProblem(
                        code: "sign_in_link_invalid_base", field: "signInLink.linkBase",
                        message: "Give an https URL without query or fragment (at most 500 characters), such as https://app.example.com/link."))
            }
        }
        if !(1...30).contains(pollIntervalSeconds) {
            problems.append(
                PolicyProblem(
                    code: "sign_in_link_invalid_poll_interval", field: "signInLink.pollIntervalSeconds",
                    message: "Poll every 1 to 30 seconds."))
        }
        return problems
    }
}

extension SignInLinkSettings: MethodSettings {
    static let policyKey = "signInLink"
    static var whenAbsent: SignInLinkSettings? { nil }
}

extension ApplicationPolicy {
    /// Sign-in links, for applications offering ``AuthenticationMethod/signInLink`` (`signInLink`);
    /// `nil` takes the defaults (email, the server's own page).
    public var signInLink: SignInLinkSettings? {
        get { methodSettings[SignInLinkSettings.self] }
        set { methodSettings[SignInLinkSettings.self] = newValue }
    }
}

extension FlowPolicy {
    /// Sign-in links: the policy's, or the defaults (email, the server's own page).
    var signInLink: SignInLinkSettings {
        get { methodSettings[SignInLinkSettings.self] ?? SignInLinkSettings() }
        set { methodSettings[SignInLinkSettings.self] = newValue }
    }
}
