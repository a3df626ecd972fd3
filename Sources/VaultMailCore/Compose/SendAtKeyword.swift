import Foundation

/// Send later on the user's IMAP server (issue 33, docs/sending.md "Send later"): the copy of a
/// scheduled message in Drafts carries the keyword `$SendAt-YYYYMMDDTHHMMSSZ`, its send time in
/// UTC to the second (`$SendAt-20261201T080000Z`), so every client sees it and a VaultMail on
/// another machine sends it when due. The spelling is snooze's (`SnoozeTime.keyword`).
public enum SendAtKeyword {
    /// What every send-time keyword starts with (compared without regard to case, as IMAP does).
    public static let prefix = "$SendAt-"

    /// The keyword that carries `date`.
    public static func keyword(for date: Date) -> String {
        prefix + format.string(from: date)
    }

    /// The time a send-time keyword carries; nil for any other flag or keyword.
    public static func date(of keyword: String) -> Date? {
        guard keyword.count == prefix.count + 16,
              keyword.prefix(prefix.count).caseInsensitiveCompare(prefix) == .orderedSame else { return nil }
        return format.date(from: String(keyword.dropFirst(prefix.count)).uppercased())
    }

    /// The send time among a message's flags: the earliest when (wrongly) several; nil when it
    /// carries none (an ordinary draft).
    public static func date(in flags: some Sequence<String>) -> Date? {
        flags.compactMap(date(of:)).min()
    }

    public static func isKeyword(_ flag: String) -> Bool { date(of: flag) != nil }

    /// What a claim's own keyword starts with (snooze's and send later's claims alike); 16 hex
    /// digits follow.
    public static let claimPrefix = "$VaultMailClaim-"

    /// The claim keyword this store uses for a scheduled message: the same for every attempt of
    /// one queued message in one store (so a retry or a restarted run knows its own claim), random
    /// per queueing (`OutboxEntry.serverClaimKey`, kept in the store), so no other store has it.
    /// Without one, a new random keyword (never taken for this store's own).
    public static func claimKeyword(for entry: OutboxEntry) -> String {
        claimPrefix + (entry.serverClaimKey ?? String(UInt64.random(in: 1...UInt64.max), radix: 16))
    }

    /// `yyyyMMdd'T'HHmmss'Z'` in UTC.
    private static var format: DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return formatter
    }

    // MARK: Bcc on the server copy

    /// The copy kept in Drafts: the bytes to send with a `Bcc:` header line first when the
    /// message has Bcc recipients (the sent bytes never name them), so a VaultMail on another
    /// machine knows every recipient. `forSending(_:)` takes it out again.
    public static func serverCopy(of raw: [UInt8], bcc: [Participant]) -> [UInt8] {
        let addresses = bcc.map(\.email).filter { !$0.isEmpty }
        guard !addresses.isEmpty else { return raw }
        return Array(MIMEEncoding.header("Bcc", addresses.enumerated().map { $0.offset < addresses.count - 1 ? $0.element + "," : $0.element }).utf8) + raw
    }

    /// The bytes to send from a copy found in Drafts: every `Bcc:` header (with its folded
    /// lines) removed from the header block; the rest byte for byte as it was.
    public static func forSending(_ copy: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(copy.count)
        var index = 0
        var skipping = false
        while index < copy.count {
            // One line, with its line end.
            var end = index
            while end < copy.count, copy[end] != 0x0A { end += 1 }
            let line = Array(copy[index..<min(end + 1, copy.count)])
            index = end + 1
            let isBlank = line.allSatisfy { $0 == 0x0D || $0 == 0x0A }
            if isBlank {
                result += line
                result += copy[min(index, copy.count)...]
                return result
            }
            let continuation = line.first == 0x20 || line.first == 0x09
            if !continuation {
                skipping = line.count >= 4 && String(decoding: line.prefix(4), as: UTF8.self).lowercased() == "bcc:"
            }
            if !skipping { result += line }
        }
        return result
    }
}
