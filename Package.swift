// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Keyway",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [
        .library(name: "KeywayProtocol", targets: ["KeywayProtocol"]),
        .library(name: "Keyway", targets: ["Keyway"]),
        .library(name: "KeywayServer", targets: ["KeywayServer"]),
        .library(name: "KeywayBackend", targets: ["KeywayBackend"]),
        .executable(name: "keyway-server", targets: ["keyway-server"]),
        .executable(name: "keyway", targets: ["keyway"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        .target(
            name: "KeywayProtocol",
            swiftSettings: strict
        ),
        .target(
            name: "KeywayQR",
            swiftSettings: strict
        ),
        .target(
            name: "KeywayJOSE",
            dependencies: [
                "KeywayProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "Keyway",
            dependencies: [
                "KeywayProtocol",
                "KeywayJOSE",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "KeywayServer",
            dependencies: [
                "KeywayProtocol",
                "KeywayJOSE",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            resources: [.copy("Resources/common-passwords.txt")],
            swiftSettings: strict
        ),
        .target(
            name: "KeywayBackend",
            dependencies: [
                "Keyway", "KeywayProtocol", "KeywayJOSE",
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
                "KeywayBackend", "Keyway", "KeywayProtocol",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Examples/Backend",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "keyway-server",
            dependencies: [
                "KeywayServer",
                "KeywayProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "keyway",
            dependencies: [
                "Keyway",
                "KeywayQR",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "keyway-bench",
            dependencies: [
                "Keyway", "KeywayProtocol", "KeywayJOSE",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "KeywayTestSupport",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/KeywayTestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayTests",
            dependencies: ["Keyway", "KeywayProtocol", "KeywayJOSE"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayQRTests",
            dependencies: ["KeywayQR"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "KeywayServerTests",
            dependencies: [
                "KeywayServer", "KeywayProtocol", "KeywayJOSE", "KeywayTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "DocSnippetTests",
            dependencies: [
                "Keyway", "KeywayBackend",
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "Keyway", "KeywayServer", "KeywayProtocol", "KeywayJOSE", "KeywayBackend", "KeywayTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: strict
        ),
    ],
    swiftLanguageModes: [.v6]
)
