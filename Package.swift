// swift-tools-version:6.1
import PackageDescription

/// VaultMail: a local-first email engine. See docs/ and ../shared/design/ARCHITECTURE.md for
/// the module boundaries: adapters depend on Core, never on each other.
let package = Package(
    name: "VaultMail",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "vaultmail", targets: ["vaultmail"]),
        .executable(name: "vaultmail-bench", targets: ["vaultmail-bench"]),
        .executable(name: "vaultmail-demo", targets: ["vaultmail-demo"]),
        .library(name: "VaultMailCore", targets: ["VaultMailCore"]),
        .library(name: "VaultMailStore", targets: ["VaultMailStore"]),
        .library(name: "VaultMailIMAP", targets: ["VaultMailIMAP"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        // The web app's HTTP server. Its default traits (swift-configuration, full Foundation) are not needed.
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        // SHA-256 and HMAC (stable ids, ETags, PKCE, model files, certificate fingerprints, the
        // web app's signed tokens). On Linux it builds its own BoringSSL: nothing to install.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // The web app's pages: Mustache templates that escape every value (docs/web.md, "Pages").
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
    ],
    targets: [
        // glibc's allocator (malloc.h): the heap's settings and malloc_trim; imported by VaultMailCore only.
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),
        .target(name: "VaultMailCore", dependencies: ["CMalloc", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "VaultMailStore",
            dependencies: ["VaultMailCore", "CStemmer", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // libstemmer (Debian libstemmer-dev): Snowball's English stemmer for word search; imported by VaultMailStore only.
        .systemLibrary(name: "CStemmer", path: "Sources/CStemmer", providers: [.apt(["libstemmer-dev"])]),
        .target(name: "VaultMailNotifications", dependencies: ["VaultMailCore"]),
        .systemLibrary(name: "CSystemd", providers: [.apt(["libsystemd-dev"])]),
        .target(
            name: "VaultMailDesktop",
            dependencies: ["VaultMailCore", "VaultMailNotifications", "CSystemd"]
        ),
        .target(
            name: "VaultMailApp",
            dependencies: [
                "VaultMailCore", "VaultMailNotifications", "VaultMailStore", "VaultMailDesktop",
                "VaultMailSync", "VaultMailIMAP", "VaultMailMIME", "VaultMailWeb", "VaultMailMarkdown", "VaultMailAI",
                "VaultMailOAuth", "VaultMailOpenPGP",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // gumbo (Debian libgumbo-dev), the HTML5 parser under the web app's mail sanitizer.
        .systemLibrary(name: "CGumbo", pkgConfig: "gumbo", providers: [.apt(["libgumbo-dev"])]),
        // libarchive (Debian libarchive-dev): the ZIP of a message's attachments; imported by VaultMailWeb only.
        .systemLibrary(name: "CArchive", path: "Sources/CArchive", providers: [.apt(["libarchive-dev"])]),
        // libical (Debian libical-dev): the event card of a calendar invitation; imported by VaultMailWeb only.
        .systemLibrary(name: "CICal", path: "Sources/CICal", providers: [.apt(["libical-dev"])]),
        // The local web app (issue 12): routes, sign-in and request guards, pages, SSE, assets.
        .target(
            name: "VaultMailWeb",
            dependencies: [
                "VaultMailCore", "VaultMailNotifications", "CGumbo", "CArchive", "CICal",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // cmark-gfm (Debian libcmark-gfm-dev), for messages written in Markdown; imported by VaultMailMarkdown only.
        .systemLibrary(name: "CCmarkGFM", providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .target(name: "VaultMailMarkdown", dependencies: ["VaultMailCore", "CCmarkGFM"]),
        // OpenBLAS (Debian libopenblas-dev), the matrix products of the embedding model; imported by VaultMailAI only.
        .systemLibrary(name: "COpenBLAS", providers: [.apt(["libopenblas-dev"])]),
        // llama.cpp's shared libraries, built from source by scripts/build-llama.sh (`make deps`)
        // into .build/llama; imported by VaultMailAI only. Built binaries find them there (the
        // run path below); installed ones beside them (scripts/install.sh sets theirs).
        .systemLibrary(name: "CLlama", path: "Sources/CLlama"),
        // What the processor and the kernel let us run (CPUID, XCR0, an AMX trial in a child
        // process): VaultMailAI chooses llama.cpp's CPU code by it (issue 27).
        .target(name: "CCPUState"),
        // On-device AI (issues 15, 16): the engines behind Core's AIEngine, the model manager.
        .target(
            name: "VaultMailAI", dependencies: [
                "VaultMailCore", "COpenBLAS", "CLlama", "CCPUState", .product(name: "Crypto", package: "swift-crypto"),
            ],
            // Optimized in debug builds too: the embedding model's loops run ~4× faster (`make run`, tests).
            swiftSettings: [.unsafeFlags(["-O"])],
            linkerSettings: [.unsafeFlags([
                "-L\(Context.packageDirectory)/.build/llama/lib",
                "-Xlinker", "-rpath", "-Xlinker", "\(Context.packageDirectory)/.build/llama/lib",
            ])]
        ),
        .target(name: "VaultMailTesting", dependencies: ["VaultMailCore", "VaultMailNotifications"]),
        // GMime 3 (Debian libgmime-3.0-dev), imported by VaultMailMIME only.
        .systemLibrary(
            name: "CGMime",
            pkgConfig: "gmime-3.0",
            providers: [.apt(["libgmime-3.0-dev"])]
        ),
        .target(name: "VaultMailMIME", dependencies: ["VaultMailCore", "CGMime"]),
        // GPGME (Debian libgpgme-dev) over GnuPG: OpenPGP (issue 32); imported by VaultMailOpenPGP only.
        .systemLibrary(name: "CGPGME", path: "Sources/CGPGME", providers: [.apt(["libgpgme-dev"])]),
        // The OpenPGP engine behind Core's `OpenPGPEngine`: the only code that calls GPGME.
        .target(name: "VaultMailOpenPGP", dependencies: ["VaultMailCore", "CGPGME", .product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "VaultMailSync", dependencies: ["VaultMailCore", "VaultMailMIME", "VaultMailIMAP"]),
        // libetpan (Debian libetpan-dev) and GnuTLS (libgnutls28-dev), linked directly: libetpan's
        // .pc file carries `-specs=...`, which SwiftPM rejects. Imported only by VaultMailIMAP.
        .systemLibrary(name: "CEtPan", path: "Sources/CEtPan"),
        .target(name: "VaultMailIMAP", dependencies: ["VaultMailCore", "CEtPan", .product(name: "Crypto", package: "swift-crypto")]),
        // OAuth2 sign-in (issue 19): the loopback redirect listener, the token endpoint over URLSession, xdg-open.
        .target(name: "VaultMailOAuth", dependencies: ["VaultMailCore"]),
        .executableTarget(
            name: "vaultmail",
            dependencies: [
                "VaultMailCore",
                "VaultMailApp",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "vaultmail-bench",
            dependencies: [
                "VaultMailCore", "VaultMailStore", "VaultMailNotifications", "VaultMailDesktop", "VaultMailApp", "VaultMailTesting",
                "VaultMailSync", "VaultMailIMAP", "VaultMailMIME", "VaultMailWeb", "VaultMailAI",
                .product(name: "Logging", package: "swift-log"), .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // `make demo`: the tool against private servers on loopback, narrated (issue 7).
        .executableTarget(name: "vaultmail-demo", dependencies: ["VaultMailCore", "VaultMailIMAP", "VaultMailTesting"]),
        .testTarget(
            name: "VaultMailCoreTests",
            dependencies: ["VaultMailCore", "VaultMailTesting", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "VaultMailAITests",
            dependencies: [
                "VaultMailCore", "VaultMailAI", "VaultMailTesting", "VaultMailStore", "VaultMailMIME",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // The reference vectors, read from the source tree by path (scripts/reference-embeddings.py writes them).
            exclude: ["Embedding/Fixtures"]
        ),
        .testTarget(
            name: "VaultMailOpenPGPTests",
            dependencies: ["VaultMailCore", "VaultMailOpenPGP", "VaultMailMIME", "VaultMailTesting"]
        ),
        .testTarget(
            name: "VaultMailMIMETests",
            dependencies: ["VaultMailCore", "VaultMailMIME", "VaultMailTesting", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "VaultMailSyncTests",
            dependencies: ["VaultMailCore", "VaultMailMIME", "VaultMailSync", "VaultMailTesting", "VaultMailIMAP", "VaultMailStore"]
        ),
        .testTarget(
            name: "VaultMailIMAPTests",
            dependencies: ["VaultMailCore", "VaultMailIMAP", "VaultMailTesting"]
        ),
        .testTarget(
            name: "VaultMailOAuthTests",
            dependencies: ["VaultMailCore", "VaultMailOAuth", "VaultMailTesting"]
        ),
        .testTarget(
            name: "VaultMailStoreTests",
            dependencies: ["VaultMailCore", "VaultMailStore", "VaultMailTesting"]
        ),
        .testTarget(
            name: "VaultMailDesktopTests",
            dependencies: ["VaultMailCore", "VaultMailNotifications", "VaultMailDesktop", "VaultMailTesting", "VaultMailStore", "VaultMailApp"]
        ),
        .testTarget(
            name: "VaultMailAppTests",
            dependencies: ["VaultMailCore", "VaultMailApp", "VaultMailStore", "VaultMailTesting", "VaultMailIMAP", "VaultMailSync",
                           "VaultMailOAuth", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(
            name: "VaultMailSendingTests",
            dependencies: [
                "VaultMailCore", "VaultMailIMAP", "VaultMailStore", "VaultMailMIME", "VaultMailNotifications",
                "VaultMailApp", "VaultMailSync", "VaultMailTesting", "VaultMailOpenPGP",
            ]
        ),
        .testTarget(
            name: "VaultMailEndToEndTests",
            dependencies: ["VaultMailCore", "VaultMailTesting"]
        ),
        .testTarget(
            name: "VaultMailWebTests",
            dependencies: ["VaultMailCore", "VaultMailWeb", "VaultMailMarkdown", "VaultMailMIME", "VaultMailNotifications", "VaultMailTesting", "VaultMailStore", "VaultMailApp", "VaultMailOAuth", "VaultMailOpenPGP",
                           .product(name: "Crypto", package: "swift-crypto"), .product(name: "Hummingbird", package: "hummingbird")]
        ),
        .testTarget(
            name: "VaultMailNotificationsTests",
            dependencies: ["VaultMailCore", "VaultMailNotifications", "VaultMailTesting", "VaultMailStore", "VaultMailApp"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
