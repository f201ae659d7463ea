import Crypto
import Foundation
import KeywayPowerAuthClient
import Testing

@Suite("Online and offline signatures")
struct SigningTests {
    @Test func signaturesVerifyAtTheServerWithEachFactorCombination() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate(password: "1234", biometry: true)
        for authentication in [
            FactorAuthentication.possession, .password("1234"), .biometry(reason: "Pay"),
            .passwordAndBiometry(password: "1234", reason: "Pay"),
        ] {
            let body = Data(#"{"amount":"10.00"}"#.utf8)
            let header = try await fixture.activation.sign(method: "POST", uriID: "/pa/signature/validate", body: body, with: authentication)
            #expect(header.activationID == id)
            #expect(header.version == "3.3")
            #expect(header.factors == authentication.factors)
            #expect(Data(base64Encoded: header.signature)?.count == 16 * authentication.factors.count)
            let response = try await fixture.peer.send(TransportRequest(
                method: "POST", url: fixture.peer.baseURL.appendingPathComponent("pa/v3/signature/validate"),
                headers: [PowerAuthAuthorizationHeader.name: header.value], body: body))
            #expect(response.status == 200, "\(authentication.factors)")
        }
        // The header reads back as it was written.
        let header = try await fixture.activation.sign(method: "POST", uriID: "/a", body: Data(), with: .possession)
        #expect(try PowerAuthAuthorizationHeader(parsing: header.value) == header)
    }

    @Test func getRequestsSignTheirSortedQuery() async throws {
        let fixture = try Fixture()
        try await fixture.activate()
        let query = [URLQueryItem(name: "b", value: "2"), URLQueryItem(name: "a", value: "z"), URLQueryItem(name: "a", value: "y")]
        let header = try await fixture.activation.sign(uriID: "/pa/signature/validate", query: query, with: .password("1234"))
        // The server verifies against the canonical body `a=y&a=z&b=2`.
        let response = try await fixture.peer.send(TransportRequest(
            method: "GET", url: fixture.peer.baseURL.appendingPathComponent("pa/v3/signature/validate"),
            headers: [PowerAuthAuthorizationHeader.name: header.value], body: Data("a=y&a=z&b=2".utf8)))
        #expect(response.status == 200)
    }

    @Test func aWrongPasswordIsOnlyDetectedByTheServer() async throws {
        let fixture = try Fixture()
        try await fixture.activate(password: "1234")
        // The device signs with whatever the password unwraps to…
        _ = try await fixture.activation.sign(method: "POST", uriID: "/x", body: Data(), with: .password("0000"))
        // …and the server refuses it, counting the attempt.
        let error = await #expect(throws: ActivationError.self) { try await fixture.activation.validatePassword("0000") }
        #expect(error?.code == "authentication_failed")
        try await fixture.activation.validatePassword("1234")
    }

    @Test func concurrentSignaturesUseDistinctCountersPersistedInOrder() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate()
        let serverStart = try #require(await fixture.peer.activation(id)).counterData
        let writesBefore = await fixture.storage.writes.count
        let count = 40
        let headers = try await withThrowingTaskGroup(of: PowerAuthAuthorizationHeader.self) { group in
            for index in 0..<count {
                group.addTask {
                    try await fixture.activation.sign(
                        method: "POST", uriID: "/payments/\(index)", body: Data("\(index)".utf8), with: .possession)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(headers.count == count)

        // Each signature matches exactly one counter value of the chain, and no two share one.
        let secret = fixture.peer.applicationSecret
        let keys = try #require(await fixture.peer.activation(id)).keys.signatureKeys(for: .possession)
        var used = Set<Int>()
        for header in headers {
            let uri = try #require(headers.firstIndex(of: header))
            _ = uri
            var position: Int?
            var counter = serverStart
            for step in 0..<count {
                for index in 0..<count {
                    let data = PowerAuthSignature.signedData(
                        requestData: PowerAuthSignature.requestData(
                            method: "POST", uriIdentifier: "/payments/\(index)", nonce: header.nonce, body: Data("\(index)".utf8)),
                        applicationSecret: secret)
                    if try PowerAuthSignature.compute(data: data, keys: keys, counterData: counter, format: .base64) == header.signature {
                        position = step
                    }
                }
                if position != nil { break }
                counter = PowerAuthHashCounter.next(counter)
            }
            let step = try #require(position, "a signature matches no counter value")
            #expect(used.insert(step).inserted, "two signatures share counter step \(step)")
        }
        #expect(used == Set(0..<count))

        // The record was written once per signature, each write one step after the previous.
        let writes = await fixture.storage.writes.dropFirst(writesBefore).compactMap { StoredRecord.counterData($0.data) }
        #expect(writes.count == count)
        var expected = serverStart
        for written in writes {
            expected = PowerAuthHashCounter.next(expected)
            #expect(written == expected)
        }
    }

    @Test func aSecondInstanceOfTheSameNamespaceSharesTheCounterLock() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate()
        let twin = DeviceActivation(
            configuration: try fixture.peer.configuration(), appIdentifier: "com.example.app", storage: fixture.storage,
            options: DeviceActivationOptions(transport: fixture.peer))
        async let first = (0..<10).asyncMap { _ in try await fixture.activation.sign(method: "POST", uriID: "/a", body: Data(), with: .possession) }
        async let second = (0..<10).asyncMap { _ in try await twin.sign(method: "POST", uriID: "/a", body: Data(), with: .possession) }
        let all = try await first + second
        // Twenty signatures, twenty steps: the server accepts each in turn from its window.
        #expect(all.count == 20)
        let record = try #require(await fixture.storage.writes.last).data
        var counter = try #require(await fixture.peer.activation(id)).counterData
        for _ in 0..<20 { counter = PowerAuthHashCounter.next(counter) }
        #expect(StoredRecord.counterData(record) == counter)
    }

    @Test func offlineSignaturesCheckTheServersSignatureOfTheQRData() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate(password: "1234")
        for flag in [OfflineSigningKey.activation, .master] {
            let payload = try await fixture.peer.offlineData("Pay 10 EUR to Bob", activationID: id, flag: flag)
            let parsed = try DeviceActivation.parseOfflineData(payload.text)
            #expect(parsed.data == "Pay 10 EUR to Bob")
            let signature = try await fixture.activation.signOffline(payload.text, with: .password("1234"))
            #expect(signature.data == "Pay 10 EUR to Bob")
            #expect(signature.signature.split(separator: "-").map(\.count) == [8, 8])
            #expect(try await fixture.peer.verifyOffline(signature.signature, payload: payload, activationID: id, factors: [.possession, .knowledge]))
        }

        // Altered data, or a flag naming the other key, fail the ECDSA check.
        let payload = try await fixture.peer.offlineData("Pay 10 EUR to Bob", activationID: id, flag: .activation)
        let altered = payload.text.replacingOccurrences(of: "10 EUR", with: "99 EUR")
        await #expect(throws: ActivationError.offlineDataSignatureInvalid) {
            try await fixture.activation.signOffline(altered, with: .password("1234"))
        }
        let lines = payload.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2].first == "1")
        let flipped = lines[0] + "\n" + lines[1] + "\n0" + lines[2].dropFirst()
        await #expect(throws: ActivationError.offlineDataSignatureInvalid) {
            try await fixture.activation.signOffline(String(flipped), with: .password("1234"))
        }
    }

    @Test func serverSignedDataIsVerifiedWithTheKeyNamed() async throws {
        let fixture = try Fixture()
        let id = try await fixture.activate()
        let data = Data("hello".utf8)
        let byMaster = try fixture.peer.masterKey.signature(for: data).derRepresentation
        let server = try P256.Signing.PrivateKey(rawRepresentation: try #require(await fixture.peer.activation(id)).serverKey.rawRepresentation)
        let byServer = try server.signature(for: data).derRepresentation
        #expect(try await fixture.activation.verifyServerSignedData(data, signature: byMaster, key: .master))
        #expect(try await fixture.activation.verifyServerSignedData(data, signature: byServer, key: .activation))
        #expect(try await !fixture.activation.verifyServerSignedData(data, signature: byServer, key: .master))
        #expect(try await !fixture.activation.verifyServerSignedData(Data("other".utf8), signature: byMaster, key: .master))
        #expect(try await !fixture.activation.verifyServerSignedData(data, signature: Data([1, 2]), key: .master))
    }

    @Test(arguments: [
        "", "only one line", "data\nnonce", "data\nAAAAAAAAAAAAAAAAAAAAAA==\n2MEUCIQ==", "data\nnot base64\n0MEUCIQ==",
        "data\nAAAAAAAAAAAAAAAAAAAA\n0MEUCIQ==", "data\nAAAAAAAAAAAAAAAAAAAAAA==\n0", "data\nAAAAAAAAAAAAAAAAAAAAAA==\n0***",
        "\nAAAAAAAAAAAAAAAAAAAAAA==\n0MEUCIQ==",
    ])
    func malformedOfflineDataIsRefused(text: String) {
        #expect(throws: ActivationError.self) { try DeviceActivation.parseOfflineData(text) }
    }
}

extension Range where Bound == Int {
    /// Runs `body` for each value in turn.
    func asyncMap<T: Sendable>(_ body: (Int) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for value in self { results.append(try await body(value)) }
        return results
    }
}
