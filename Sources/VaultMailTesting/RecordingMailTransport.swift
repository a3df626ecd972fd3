import Foundation
import VaultMailCore

/// A `MailTransport` that records what it is asked to send and fails or waits on demand.
public actor RecordingMailTransport: MailTransport {
    public struct Sent: Sendable, Hashable {
        public var message: [UInt8]
        public var envelope: MailEnvelope
        public var accountId: String
    }

    /// What the next sends do.
    public enum Behaviour: Sendable {
        case accept
        /// Fails before anything is transmitted.
        case fail(MailTransportError)
        /// Calls `willTransmit`, then fails (the connection broke while the content went out).
        case failAfterData(MailTransportError)
    }

    public private(set) var sent: [Sent] = []
    /// Every call, including the ones that failed.
    public private(set) var attempts = 0
    public var behaviour: Behaviour = .accept
    private var gate: CheckedContinuation<Void, Never>?
    private var holdNext = false

    public init() {}

    public func setBehaviour(_ behaviour: Behaviour) {
        self.behaviour = behaviour
    }

    /// Makes the next send stop right after `willTransmit` until `release()`.
    public func holdNextSend() {
        holdNext = true
    }

    /// Lets a held send finish.
    public func release() {
        gate?.resume()
        gate = nil
    }

    /// Waits (at most `timeout`) until a send is held.
    public func waitUntilHeld(timeout: Duration = .seconds(60)) async throws {
        try await waitUntil("a send held by the transport", timeout: timeout) { gate != nil }
    }

    public func send(
        _ message: [UInt8], envelope: MailEnvelope, account: Account,
        willTransmit: @escaping @Sendable () async throws -> Void
    ) async throws {
        attempts += 1
        switch behaviour {
        case .fail(let error):
            throw error
        case .failAfterData(let error):
            try await willTransmit()
            throw error
        case .accept:
            try await willTransmit()
            if holdNext {
                holdNext = false
                await withCheckedContinuation { continuation in
                    gate = continuation
                }
            }
            sent.append(Sent(message: message, envelope: envelope, accountId: account.id))
        }
    }
}
