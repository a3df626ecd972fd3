import Foundation

/// Where an account's Autocrypt peer states are kept (issue 32). Synced mail updates them in
/// the same write that stores it (`IncomingEmail.autocrypt`); decrypted mail's gossip through
/// `receiveGossip`, and the `Autocrypt:` header found inside decrypted mail (where Delta Chat
/// puts it) through `receive`. The rules are `AutocryptPeerState`'s.
public protocol AutocryptPeerRepository: Sendable {
    /// The states of `addresses` (any case) for the account, keyed by the address in lower case.
    func peers(accountId: String, addresses: [String]) async throws -> [String: AutocryptPeerState]
    /// Every peer the account knows, by address.
    func allPeers(accountId: String) async throws -> [AutocryptPeerState]
    /// Applies `AutocryptPeerState.gossiping` for each header (from an encrypted message of
    /// `effectiveDate`) and keeps the result; gossip about the account's own address is left out.
    func receiveGossip(_ headers: [AutocryptHeader], effectiveDate: Date, accountId: String) async throws
    /// Applies `AutocryptPeerState.receiving` for one received message (its `Autocrypt:`
    /// headers read inside its encrypted part) and keeps the result; the account's own mail is
    /// left out, as when synced mail is stored.
    func receive(_ receipt: AutocryptReceipt, accountId: String) async throws
}
