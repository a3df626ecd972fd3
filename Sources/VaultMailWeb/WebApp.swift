import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization
import VaultMailCore

/// The local web app (issue 12), served by the daemon on 127.0.0.1: read and triage mail in
/// the browser. A ServiceLifecycle service: it serves until cancelled.
public final class WebApp: Service, Sendable {
    public let configuration: WebConfiguration
    public let events: WebEventHub
    let mail: WebMail
    let secret: WebSecret
    let logger: Logger
    let usedTokens = UsedSignInTokens()
    let sanitized: SanitizedCache
    let summaryRequests = SummaryRequests()
    private let boundPort = Mutex<Int?>(nil)
    private let serving = AsyncStream<Int>.makeStream()

    /// Reads (or creates) the sign-in secret; serves nothing until `run()`.
    public init(configuration: WebConfiguration, mail: WebMail, events: WebEventHub = WebEventHub(), logger: Logger) throws {
        self.configuration = configuration
        self.mail = mail
        sanitized = SanitizedCache(shield: mail.privacy?.shield)
        self.events = events
        self.logger = logger
        try FileManager.default.createDirectory(at: configuration.home, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        secret = try WebSecret.loadOrCreate(at: configuration.secretURL)
    }

    /// The port the app listens on, once it does (the configured one, or the one the system
    /// gave for port 0).
    public var port: Int? { boundPort.withLock { $0 } }

    /// Waits until the app listens and returns its port.
    public func waitUntilServing() async -> Int? {
        if let port { return port }
        for await port in serving.stream { return port }
        return self.port
    }

    public func run() async throws {
        let router = Router(context: WebRequestContext.self)
        router.add(middleware: SecurityHeaders())
        router.add(middleware: RequestGuard(secret: secret, port: { [unowned self] in port ?? configuration.port }))
        router.add(middleware: BrowserLocaleMiddleware())
        addSignInRoutes(to: router)
        addAssetRoutes(to: router)
        addMailRoutes(to: router)
        addCountsRoutes(to: router)
        addMarkAllReadRoutes(to: router)
        addSearchRoutes(to: router)
        addMessageRoutes(to: router)
        addAttachmentRoutes(to: router)
        addActionRoutes(to: router)
        addComposeRoutes(to: router)
        addSettingsRoutes(to: router)
        addEncryptionRoutes(to: router)
        addSubscriptionRoutes(to: router)
        addAccountRoutes(to: router)
        addAIRoutes(to: router, models: mail.aiModels)
        addWritingRoutes(to: router)
        addEventRoutes(to: router)

        let application = Application(
            router: router,
            configuration: .init(address: .hostname(WebConfiguration.host, port: configuration.port), serverName: nil),
            onServerRunning: { [self] channel in
                let port = channel.localAddress?.port ?? configuration.port
                boundPort.withLock { $0 = port }
                writePortFile(port)
                serving.continuation.yield(port)
                logger.info("web app at http://\(WebConfiguration.host):\(port)/ (open it with `vaultmail open`)")
            },
            logger: logger
        )
        defer {
            try? FileManager.default.removeItem(at: configuration.portFileURL)
            serving.continuation.finish()
        }
        do {
            // Open pages hold their event streams: end them on shutdown, or the server waits for them.
            try await withGracefulShutdownHandler {
                try await withThrowingDiscardingTaskGroup { group in
                    group.addTask { await self.forwardStoreChanges() }
                    group.addTask { await self.heartbeat() }
                    // The people for recipient suggestions, read before the first keystroke needs them.
                    group.addTask { _ = await self.mail.contacts.count() }
                    try await application.run()
                    group.cancelAll()
                }
            } onGracefulShutdown: {
                Task { await self.events.finishAll() }
            }
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw WebError.portInUse(configuration.port)
        }
    }

    /// Every committed change of the store becomes a `changed` event for the open pages.
    private func forwardStoreChanges() async {
        for await _ in mail.changes.changes() {
            await events.publish(.changed)
            await mail.contacts.invalidate()
        }
    }

    /// A comment line now and then keeps idle event streams open and finds closed ones.
    private func heartbeat() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: .seconds(15)) } catch { return }
            await events.publish(.ping)
        }
    }

    private func writePortFile(_ port: Int) {
        try? "\(port)\n".write(to: configuration.portFileURL, atomically: true, encoding: .utf8)
    }
}
