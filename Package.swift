// swift-tools-version:6.1
// The Keyway SDK: what an app adds. Its only dependency is swift-crypto (Crypto, and CryptoExtras
// for RSA, and for AES-CBC and PBKDF2 in KeywayPowerAuth); the server, the backend kit, the CLI and
// the benchmark are the package in Server/.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "keyway",
    // The screens' strings catalogue (KeywayPresentation) is written in English.
    defaultLocalization: "en",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "Keyway", targets: ["Keyway"]),
        .library(name: "KeywayProtocol", targets: ["KeywayProtocol"]),
        .library(name: "KeywayJOSE", targets: ["KeywayJOSE"]),
        .library(name: "KeywayPresentation", targets: ["KeywayPresentation"]),
        .library(name: "KeywaySoftwarePasskeys", targets: ["KeywaySoftwarePasskeys"]),
        .library(name: "KeywayUI", targets: ["KeywayUI"]),
        .library(name: "KeywayPowerAuth", targets: ["KeywayPowerAuth"]),
        .library(name: "KeywayPowerAuthClient", targets: ["KeywayPowerAuthClient"]),
        .library(name: "KeywayCBOR", targets: ["KeywayCBOR"]),
        .library(name: "KeywayPowerAuthWire", targets: ["KeywayPowerAuthWire"]),
        .library(name: "KeywayPasswords", targets: ["KeywayPasswords"]),
    ],
    dependencies: [
        // 4.x: its key types are Sendable, which the SDK's strict concurrency needs (3.12.3 does
        // not build it); 4.5.2 is the release tested, and needs Swift 6.1 tools.
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        .target(
            name: "KeywayProtocol",
            swiftSettings: strict
        ),
        // CBOR (RFC 8949) both ways: the SDK's software passkey writes it, the server reads
        // attestation objects, COSE keys and App Attest objects with it.
        .target(
            name: "KeywayCBOR",
            swiftSettings: strict
        ),
        .target(
            name: "KeywayJOSE",
            dependencies: [
                "KeywayProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
                // RSA (RS256 ID tokens and client assertions).
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "Keyway",
            dependencies: [
                "KeywayProtocol",
                "KeywayJOSE",
                "KeywayCBOR",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // A passkey authenticator held in software, its keys in a SecureStorage: the CLI's, tests',
        // and a program's where no platform authenticator exists.
        .target(
            name: "KeywaySoftwarePasskeys",
            dependencies: [
                "Keyway", "KeywayProtocol", "KeywayJOSE", "KeywayCBOR",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // Steps as screens — inputs, actions, displays, countdowns, and the strings catalogue —
        // on the wire types alone: KeywayUI's SwiftUI views, the CLI and the server's hosted pages
        // all render these screens.
        .target(
            name: "KeywayPresentation",
            dependencies: ["KeywayProtocol"],
            // Localizable.xcstrings: built into .lproj tables by Apple's tools, copied as written
            // elsewhere (StringCatalogue reads either).
            resources: [.process("Resources")],
            swiftSettings: strict
        ),
        .target(
            name: "KeywayUI",
            dependencies: ["Keyway", "KeywayProtocol", "KeywayPresentation"],
            swiftSettings: strict
        ),
        .target(
            name: "KeywayPowerAuth",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                // AES block and CBC (the KDF, the status blob, ECIES), PBKDF2.
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // The JSON of every /pa/v3 request and answer, the error body and the ECIES envelope, once:
        // the device SDK writes them, the server and the backend kit read them.
        .target(
            name: "KeywayPowerAuthWire",
            dependencies: ["KeywayPowerAuth"],
            swiftSettings: strict
        ),
        // The common-password list, one file for the server's refusal and the device SDK's warning.
        .target(
            name: "KeywayPasswords",
            resources: [.copy("Resources/common-passwords.txt")],
            swiftSettings: strict
        ),
        .target(
            name: "KeywayPowerAuthClient",
            dependencies: [
                "Keyway",
                "KeywayProtocol",
                "KeywayPowerAuth",
                "KeywayPowerAuthWire",
                "KeywayPasswords",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayPowerAuthClientTests",
            dependencies: [
                "KeywayPowerAuthClient", "KeywayPasswords", "KeywayPowerAuthWire", "Keyway", "KeywayPowerAuth", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayPowerAuthTests",
            dependencies: ["KeywayPowerAuth", .product(name: "Crypto", package: "swift-crypto")],
            resources: [.copy("Vectors")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayPowerAuthWireTests",
            dependencies: ["KeywayPowerAuthWire", "KeywayPowerAuth"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayCBORTests",
            dependencies: ["KeywayCBOR"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayUITests",
            dependencies: ["KeywayUI", "KeywaySoftwarePasskeys", "Keyway", "KeywayProtocol", "KeywayPresentation"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayProtocolTests",
            dependencies: ["KeywayProtocol"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayJOSETests",
            dependencies: ["KeywayJOSE", "KeywayProtocol", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayTests",
            dependencies: [
                "Keyway", "KeywaySoftwarePasskeys", "KeywayProtocol", "KeywayJOSE", "KeywayCBOR", .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "DocSnippetTests",
            dependencies: ["Keyway", "KeywayUI", "KeywaySoftwarePasskeys", "KeywayPowerAuthClient", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
