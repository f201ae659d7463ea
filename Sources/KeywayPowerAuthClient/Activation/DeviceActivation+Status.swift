import Crypto
import Foundation
import KeywayPowerAuthWire

extension DeviceActivation {
    /// Asks the server for the activation's status (`POST /pa/v3/activation/status` with a
    /// random challenge), decrypts the status blob with the transport key, and, when the server's
    /// counter is ahead within its look-ahead window, moves the device's counter forward to it.
    ///
    /// - Returns: The state, the attempts, and how the counters compare.
    /// - Throws: ``ActivationError``: `noActivation`, `invalidResponse` (a blob that does not
    ///   decrypt), the transport's errors, `storage`.
    public func fetchStatus() async throws(ActivationError) -> ActivationStatusReport {
        let record = try await existingRecord()
        let challenge = Randomness.bytes(16)
        let body = try await http.post(
            "/pa/v3/activation/status",
            json: PowerAuthRequestEnvelope(requestObject: ActivationStatusRequest(activationId: record.activationID, challenge: challenge.base64EncodedString())))
        guard let answer = try PowerAuthHTTP.decode(PowerAuthOKBody<ActivationStatusResponse>.self, from: body, what: "status answer")
            .responseObject
        else { throw .invalidResponse("The status answer is not the JSON the protocol describes.") }
        guard let encrypted = Data(base64Encoded: answer.encryptedStatusBlob), let nonce = Data(base64Encoded: answer.nonce) else {
            throw .invalidResponse("The status blob or its nonce is not Base64.")
        }
        let blob: ActivationStatusBlob
        do {
            blob = try ActivationStatusBlob(
                decrypting: encrypted, transportKey: SymmetricKey(data: record.transportKey), challenge: challenge, nonce: nonce)
        } catch {
            throw .invalidResponse("The status blob does not decrypt with this activation's keys (\(error)).")
        }
        let counter = try await update(expectedID: record.activationID) { record in
            Self.synchronize(&record, with: blob)
        }
        return ActivationStatusReport(
            activationID: record.activationID, state: blob.state, failedAttempts: Int(blob.failedAttempts),
            maxFailedAttempts: Int(blob.maxFailedAttempts), counter: counter)
    }

    /// Compares the record's counter with the blob's and moves it forward when the server is
    /// ahead within its look-ahead window. When the device is ahead, the counter's low byte
    /// against the blob's `CTR_BYTE` says by how much.
    static func synchronize(_ record: inout ActivationRecord, with blob: ActivationStatusBlob) -> CounterSynchronization {
        let window = max(Int(blob.counterLookAhead), 1)
        let transportKey = SymmetricKey(data: record.transportKey)
        if let distance = try? blob.counterDistance(from: record.counterData, transportKey: transportKey, maxDistance: window) {
            guard distance > 0 else { return .inStep }
            for _ in 0..<distance { record.counterData = PowerAuthHashCounter.next(record.counterData) }
            record.counter &+= UInt64(distance)
            return .resynchronized(steps: distance)
        }
        let ahead = Int(UInt8(truncatingIfNeeded: record.counter) &- blob.counterByte)
        return (1..<window).contains(ahead) ? .deviceAhead(steps: ahead) : .outOfSync
    }
}
