import Foundation

/// Where an account's Autocrypt peer states are kept (issue 32). Synced mail updates them in
/// the same write that stores it (`IncomingEmail.autocrypt`); decrypted mail's gossip through
/// `receiveGossip`. The rules are `AutocryptPeerState`'s.
public protocol AutocryptPeerRepository: Sendable {
    /// The states of `addresses` (any case) for the account, keyed by the address in lower case.
    func peers(accountId: String, addresses: [String]) async throws -> [String: AutocryptPeerState]
    /// Every peer the account knows, by address.
    func allPeers(accountId: String) async throws -> [AutocryptPeerState]
    /// Applies `AutocryptPeerState.gossiping` for each header (from an encrypted message of
    /// `effectiveDate`) and keeps the result; gossip about the account's own address is left out.
    func receiveGossip(_ headers: [AutocryptHeader], effectiveDate: Date, accountId: String) async throws
}
