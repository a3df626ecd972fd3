import Foundation
import VaultMailCore
import VaultMailIMAP

/// The CONDSTORE claim (RFC 7162) that snooze's wake and send later share (docs/snooze.md "The
/// claim", docs/sending.md "Send later"): in the selected mailbox, each message's time keyword is
/// replaced by a lease (a later time in the same keyword) and a keyword of this claim's own
/// (`$VaultMailClaim-` and 16 random hex digits), in one
/// `UID STORE uid (UNCHANGEDSINCE <its mod-sequence>) FLAGS.SILENT (…)`. Of several clients that
/// read the message at the same mod-sequence only one succeeds; the others are told MODIFIED
/// and leave it. The claim's own keyword makes two claims in the same second store different
/// flags (Dovecot does not count a store that leaves the flags as they are as a conflict).
struct IMAPKeywordClaim {
    /// The scheme's time keywords (snooze's, or send later's): replaced by the lease.
    let isTimeKeyword: @Sendable (String) -> Bool

    /// What every claim's own keyword starts with; it is followed by 16 random hex digits.
    static let keywordPrefix = SendAtKeyword.claimPrefix

    /// A new claim's own keyword.
    static func newKeyword() -> String {
        keywordPrefix + String(UInt64.random(in: 1...UInt64.max), radix: 16)
    }

    static func isClaimKeyword(_ name: String) -> Bool {
        name.prefix(keywordPrefix.count).caseInsensitiveCompare(keywordPrefix) == .orderedSame
    }

    /// A time keyword of the scheme, or a claim's own keyword (left by a client that died).
    func isTimeOrClaim(_ flag: IMAPFlag) -> Bool {
        isTimeKeyword(flag.name) || Self.isClaimKeyword(flag.name)
    }

    /// Claims `messages` (read with their mod-sequence) in the selected mailbox: their time and
    /// claim keywords replaced by `lease` and a new claim keyword. Returns the messages this
    /// client claimed, with their flags as stored now. One already expunged by another client is
    /// left out after a NOOP (Dovecot does not report it MODIFIED, yet the session still lists
    /// it). A message the server gives no mod-sequence is not claimed but returned as it is.
    /// `keyword`: the claim's own keyword (send later's is the same for one store's attempts at a
    /// message); a new random one when nil.
    func claim(_ messages: [IMAPMessageFlags], lease: String, keyword: String? = nil, on imap: IMAPConnection) async throws -> [IMAPMessageFlags] {
        let mine: Set<IMAPFlag> = [IMAPFlag(lease), IMAPFlag(keyword ?? Self.newKeyword())]
        var claimed: [IMAPMessageFlags] = []
        for message in messages.sorted(by: { $0.uid < $1.uid }) {
            guard let modSeq = message.modSeq else {
                claimed.append(message)
                continue
            }
            let flags = message.flags.filter { !isTimeOrClaim($0) && $0 != .recent }.union(mine)
            do {
                let modified = try await imap.storeFlags(flags, .replace, uids: UIDSet([message.uid]), unchangedSince: modSeq)
                if modified.isEmpty { claimed.append(IMAPMessageFlags(uid: message.uid, flags: flags)) }
            } catch let error as IMAPError where error.kind == .commandFailed {
                // Gone meanwhile ([EXPUNGEISSUED]): another client took or moved it.
                continue
            }
        }
        guard !claimed.isEmpty else { return [] }
        _ = try await imap.noop()
        let here = Set(try await imap.fetchFlags(UIDSet(claimed.map(\.uid))).map(\.uid))
        return claimed.filter { here.contains($0.uid) }
    }
}
