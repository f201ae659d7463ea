// swift-tools-version:6.2
// The server side of Keyway: keyway-server, KeywayBackend for an app's own backend, the keyway
// CLI and the benchmark, with their tests. The SDK they build on is the package at the
// repository root, which is all an app depends on. Swift 6.2 tools: swift-log, swift-metrics and
// swift-service-lifecycle need them.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let sdk = "keyway"

let package = Package(
    name: "keyway-server",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "KeywayServer", targets: ["KeywayServer"]),
        .library(name: "KeywayBackend", targets: ["KeywayBackend"]),
        .executable(name: "keyway-server", targets: ["keyway-server"]),
        .executable(name: "keyway", targets: ["keyway"]),
    ],
    dependencies: [
        .package(name: sdk, path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
    ],
    targets: [
        .target(
            name: "KeywayQR",
            swiftSettings: strict
        ),
        .target(
            name: "KeywayLoopback",
            swiftSettings: strict
        ),
        .target(
            name: "KeywayServer",
            dependencies: [
                .product(name: "KeywayProtocol", package: sdk),
                // The screens the hosted pages draw steps as, shared with the SDK's renderers.
                .product(name: "KeywayPresentation", package: sdk),
                .product(name: "KeywayJOSE", package: sdk),
                .product(name: "KeywayPowerAuth", package: sdk),
                .product(name: "KeywayCBOR", package: sdk),
                .product(name: "KeywayPowerAuthWire", package: sdk),
                .product(name: "KeywayPasswords", package: sdk),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Mustache", package: "swift-mustache"),
                "KeywayQR",
            ],
            resources: [
                .copy("Resources/openapi.json"),
                .copy("Resources/HostedPages"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "KeywayBackend",
            dependencies: [
                .product(name: "Keyway", package: sdk), .product(name: "KeywayProtocol", package: sdk), .product(name: "KeywayJOSE", package: sdk),
                .product(name: "KeywayPowerAuth", package: sdk), .product(name: "KeywayPowerAuthWire", package: sdk),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "keyway-example-backend",
            dependencies: [
                "KeywayBackend", .product(name: "Keyway", package: sdk), .product(name: "KeywayProtocol", package: sdk),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Examples/Backend",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "keyway-server",
            dependencies: [
                "KeywayServer",
                .product(name: "KeywayProtocol", package: sdk), .product(name: "KeywayJOSE", package: sdk),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "keyway",
            dependencies: [
                .product(name: "Keyway", package: sdk), .product(name: "KeywayUI", package: sdk),
                .product(name: "KeywayPowerAuthClient", package: sdk),
                // The CLI is a passkey authenticator itself, its keys in its files.
                .product(name: "KeywaySoftwarePasskeys", package: sdk),
                "KeywayQR", "KeywayLoopback",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "keyway-bench",
            dependencies: [
                "KeywayServer",
                .product(name: "Keyway", package: sdk), .product(name: "KeywayProtocol", package: sdk), .product(name: "KeywayJOSE", package: sdk),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "KeywayTestSupport",
            dependencies: [
                "KeywayServer", .product(name: "Keyway", package: sdk), .product(name: "KeywayCBOR", package: sdk),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Tests/KeywayTestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayCLITests",
            dependencies: [
                "keyway", "KeywayServer", .product(name: "KeywayPowerAuthClient", package: sdk),
                .product(name: "Keyway", package: sdk), .product(name: "KeywayUI", package: sdk),
                .product(name: "KeywayPresentation", package: sdk), .product(name: "KeywayProtocol", package: sdk),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayQRTests",
            dependencies: ["KeywayQR"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayLoopbackTests",
            dependencies: ["KeywayLoopback"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayServerTests",
            dependencies: [
                "KeywayServer", .product(name: "KeywayProtocol", package: sdk), .product(name: "KeywayJOSE", package: sdk), .product(name: "KeywayPowerAuth", package: sdk), "KeywayTestSupport",
                .product(name: "KeywayPowerAuthWire", package: sdk), .product(name: "KeywayCBOR", package: sdk),
                .product(name: "KeywayPasswords", package: sdk),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayBackendTests",
            dependencies: [
                "KeywayBackend", .product(name: "KeywayPowerAuth", package: sdk),
                .product(name: "KeywayPowerAuthWire", package: sdk),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "BackendDocSnippetTests",
            dependencies: [
                .product(name: "Keyway", package: sdk), "KeywayBackend",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                .product(name: "Keyway", package: sdk), .product(name: "KeywayUI", package: sdk),
                .product(name: "KeywaySoftwarePasskeys", package: sdk), "KeywayServer", .product(name: "KeywayProtocol", package: sdk), .product(name: "KeywayJOSE", package: sdk), .product(name: "KeywayPowerAuth", package: sdk), .product(name: "KeywayPowerAuthClient", package: sdk), "KeywayBackend", "KeywayTestSupport",
                .product(name: "KeywayCBOR", package: sdk),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
