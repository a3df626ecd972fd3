import Foundation

/// What an account knows of one correspondent's Autocrypt key (Autocrypt Level 1 §2.1,
/// `peers[addr]`), learnt from the mail it receives: the `Autocrypt:` header of their own
/// mail, and `Autocrypt-Gossip:` about them in others' encrypted mail. Issue 32.
///
/// The rules that change it are here, once (`receiving`, `gossiping`); the store keeps it
/// (`AutocryptPeerRepository`) and the composer reads it through `AutocryptRecommendation`.
public struct AutocryptPeerState: Sendable, Hashable {
    /// The peer's address, in lower case.
    public var address: String
    /// The effective date of the newest message seen from the peer (with or without a header).
    public var lastSeen: Date
    /// The effective date of the newest message from the peer that carried a usable
    /// `Autocrypt:` header; nil when none has.
    public var autocryptTimestamp: Date?
    /// The key from that header (binary OpenPGP, as `keydata` carries it).
    public var publicKey: [UInt8]?
    /// The peer asked for `prefer-encrypt=mutual` in that header.
    public var preferMutual: Bool
    /// The effective date of the newest encrypted message that gossiped a key for the peer.
    public var gossipTimestamp: Date?
    /// The key gossiped there.
    public var gossipKey: [UInt8]?

    public init(address: String, lastSeen: Date, autocryptTimestamp: Date? = nil, publicKey: [UInt8]? = nil,
                preferMutual: Bool = false, gossipTimestamp: Date? = nil, gossipKey: [UInt8]? = nil) {
        self.address = address.lowercased()
        self.lastSeen = lastSeen
        self.autocryptTimestamp = autocryptTimestamp
        self.publicKey = publicKey
        self.preferMutual = preferMutual
        self.gossipTimestamp = gossipTimestamp
        self.gossipKey = gossipKey
    }

    /// The key to encrypt to (Level 1 §2.3): the peer's own, else the gossiped one.
    public var targetKey: [UInt8]? { publicKey ?? gossipKey }

    /// Where `targetKey` came from.
    public var source: Source? { publicKey != nil ? .autocrypt : gossipKey != nil ? .gossip : nil }

    /// Where the key used for a peer was learnt.
    public enum Source: String, Sendable, Hashable {
        /// The peer's own `Autocrypt:` header.
        case autocrypt
        /// An `Autocrypt-Gossip:` header in someone else's encrypted mail.
        case gossip
    }

    /// The state after receiving a message from the peer (Level 1 §2.3, "Updating Autocrypt
    /// Peer State"), or `state` unchanged (a message from someone else, or older than their last
    /// header); nil only when there was no state and the message names no sender.
    ///
    /// - The effective date is the message's Date, or when it arrived if that is earlier (a
    ///   Date in the future counts as the arrival).
    /// - A message older than the last `Autocrypt:` header seen changes nothing.
    /// - `lastSeen` moves forward to the effective date.
    /// - Without a usable header nothing else changes (nothing is reset).
    /// - With one: `autocryptTimestamp`, `publicKey` and `preferMutual` become the message's.
    public static func receiving(_ message: AutocryptReceipt, into state: AutocryptPeerState?) -> AutocryptPeerState? {
        let sender = message.from.lowercased()
        guard !sender.isEmpty else { return state }
        let effective = message.effectiveDate
        if let state, state.address != sender { return state }
        if let known = state?.autocryptTimestamp, effective < known { return state }
        var next = state ?? AutocryptPeerState(address: sender, lastSeen: effective)
        if effective > next.lastSeen { next.lastSeen = effective }
        guard let header = message.senderHeader else { return next }
        next.autocryptTimestamp = effective
        next.publicKey = header.keyData
        next.preferMutual = header.preferMutual
        return next
    }

    /// The state after an encrypted message gossiped `header` about the peer (Level 1 §2.3,
    /// "Updating Autocrypt Peer State from Key Gossip"): the gossiped key is kept when the
    /// message is newer than the last gossip; nothing else changes. A peer first heard of
    /// through gossip is seen at the message's date.
    public static func gossiping(_ header: AutocryptHeader, effectiveDate: Date, into state: AutocryptPeerState?) -> AutocryptPeerState {
        var next = state ?? AutocryptPeerState(address: header.address, lastSeen: effectiveDate)
        if let known = next.gossipTimestamp, effectiveDate <= known { return next }
        next.gossipTimestamp = effectiveDate
        next.gossipKey = header.keyData
        return next
    }
}

/// One received message as Autocrypt reads it: its sender, dates, and its `Autocrypt:` header
/// values (every one, unfolded). Built when synced mail is stored (`IncomingEmail.autocrypt`).
public struct AutocryptReceipt: Sendable, Hashable {
    /// The From address.
    public var from: String
    /// The Date header, nil when absent.
    public var date: Date?
    /// When the message arrived (the server's internal date).
    public var arrived: Date
    /// The values of its `Autocrypt:` headers, in order.
    public var headers: [String]

    public init(from: String, date: Date?, arrived: Date, headers: [String]) {
        self.from = from
        self.date = date
        self.arrived = arrived
        self.headers = headers
    }

    /// The Date, or the arrival when that is earlier or there is no Date (Level 1 §2.3).
    public var effectiveDate: Date { min(date ?? arrived, arrived) }

    /// The one usable header for the sender: those whose `addr` is not From are ignored, as
    /// are unreadable ones; two or more for From count as none.
    public var senderHeader: AutocryptHeader? {
        let sender = from.lowercased()
        let matching = headers.compactMap(AutocryptHeader.parse).filter { $0.address.lowercased() == sender }
        return matching.count == 1 ? matching[0] : nil
    }
}
