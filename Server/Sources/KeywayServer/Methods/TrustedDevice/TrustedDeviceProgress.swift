import KeywayProtocol

/// What the trusted-device method keeps across a flow's stages: whether the device the client
/// named was looked at, whether the client was asked to enrol one, and the device enrolled, written
/// when the flow completes.
struct TrustedDeviceProgress: Sendable, Equatable, Codable {
    /// The named device was looked at (proven or refused); it is not offered again.
    var checked = false
    /// The client was asked to enrol its device (it did or skipped).
    var enrolOffered = false
    /// A device enrolled in this flow, written when the flow completes.
    var pending: TrustedDeviceRecord?

    init(checked: Bool = false, enrolOffered: Bool = false, pending: TrustedDeviceRecord? = nil) {
        self.checked = checked
        self.enrolOffered = enrolOffered
        self.pending = pending
    }

    private enum CodingKeys: String, CodingKey { case checked, enrolOffered, pending }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        checked = try container.value(.checked, or: false)
        enrolOffered = try container.value(.enrolOffered, or: false)
        // A device waiting to be written that cannot be read is dropped: the flow completes
        // without enrolling it (the client is told no device was trusted).
        pending = (try? container.decodeIfPresent(TrustedDeviceRecord.self, forKey: .pending)) ?? nil
    }
}

extension FlowProgress {
    /// The trusted-device method's state in the flow.
    var trustedDevice: TrustedDeviceProgress {
        get { self[kept: .trustedDevice, initially: TrustedDeviceProgress()] }
        set { self[kept: .trustedDevice, initially: TrustedDeviceProgress()] = newValue }
    }
}

extension MethodContext {
    /// The trusted-device method's state in the flow.
    var trustedDevice: TrustedDeviceProgress {
        get { self[kept: .trustedDevice, initially: TrustedDeviceProgress()] }
        set { self[kept: .trustedDevice, initially: TrustedDeviceProgress()] = newValue }
    }
}
