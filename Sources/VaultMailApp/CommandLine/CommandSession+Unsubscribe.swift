import Foundation
import VaultMailCore

extension CommandSession {
    /// Unsubscribing and the senders of bulk mail: the rules the web app shares.
    public var unsubscribeService: Unsubscribe {
        dependencies.unsubscribe(sending: sending.compose, client: oneClickClient)
    }

    /// `vaultmail unsubscribe ID`: leaves the list or newsletter of an email (or of a
    /// conversation's newest bulk message), or with `dryRun` says how it would. Fails (exit 1)
    /// when the sender offers no way VaultMail uses or the request was not accepted.
    public func unsubscribe(_ idPrefix: String, dryRun: Bool, json: Bool) async throws -> String {
        let id = try await emailOrThreadId(idPrefix)
        let service = unsubscribeService
        do {
            if dryRun {
                let offer = try await service.offer(id: id)
                if json { return try ThreadJSON.encode(UnsubscribeJSON(offer: offer, result: nil)) }
                var line = "unsubscribe: \(offer.method.summary) (from \(offer.name))"
                if let date = offer.unsubscribedAt { line += "; you unsubscribed on \(Self.day(date))" }
                return line
            }
            let result = try await service.unsubscribe(id: id)
            if json { return try ThreadJSON.encode(UnsubscribeJSON(offer: result.offer, result: result)) }
            guard result.succeeded else { throw CommandError("unsubscribe: " + result.message) }
            return "unsubscribe: " + result.message
        } catch let error as UnsubscribeError {
            throw CommandError("\(error)")
        }
    }

    /// `vaultmail subscriptions`: the senders of bulk mail of the last 90 days, most messages first.
    public func subscriptions(json: Bool) async throws -> String {
        let list = try await unsubscribeService.subscriptions()
        if json { return try ThreadJSON.encode(list.map(SubscriptionJSON.init)) }
        guard !list.isEmpty else { return "no mail from mailing lists or newsletters in the last \(Unsubscribe.windowDays) days" }
        var lines = ["30d  90d  last read   state               sender"]
        for item in list {
            let state = item.unsubscribedAt.map { "unsubscribed " + Self.day($0).suffix(5) }
                ?? (item.method.kind == "none" ? "no unsubscribe" : item.method.kind)
            let read = item.lastRead.map(Self.day) ?? "never"
            let counts = Self.right(item.recentCount) + "  " + Self.right(item.count)
            let sender = "\(item.displayName) <\(item.senderAddress)>" + (item.listId.map { " list \($0)" } ?? "")
            lines.append(counts + "  " + read.padding(toLength: 10, withPad: " ", startingAt: 0) + "  "
                + state.padding(toLength: 18, withPad: " ", startingAt: 0) + "  " + sender
                + "  [\(item.latestEmailId.prefix(ThreadRow.idLength))]")
        }
        return lines.joined(separator: "\n")
    }

    /// The full email id, else thread id, for an id or a unique prefix of either.
    private func emailOrThreadId(_ prefix: String) async throws -> String {
        let emails = try await mailboxes.emailIds(withPrefix: prefix)
        if emails.count == 1 { return emails[0] }
        let threads = try await mailboxes.threadIds(withPrefix: prefix)
        if emails.isEmpty, threads.count == 1 { return threads[0] }
        if emails.isEmpty, threads.isEmpty {
            throw CommandError("no email or conversation with id '\(prefix)'; `vaultmail threads` and `vaultmail subscriptions` show ids")
        }
        throw CommandError("'\(prefix)' matches more than one email or conversation; give more characters of the id", usage: true)
    }

    private static func right(_ number: Int) -> String {
        let text = String(number)
        return String(repeating: " ", count: max(0, 3 - text.count)) + text
    }

    private static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}

/// `vaultmail unsubscribe --json`.
struct UnsubscribeJSON: Encodable {
    var emailId: String
    var sender: String
    var method: String
    var summary: String
    var unsubscribedAt: String?
    var succeeded: Bool?
    var message: String?

    init(offer: UnsubscribeOffer, result: UnsubscribeResult?) {
        emailId = offer.emailId
        sender = offer.sender.email
        method = offer.method.kind
        summary = offer.method.summary
        unsubscribedAt = offer.unsubscribedAt.map { $0.formatted(.iso8601) }
        succeeded = result?.succeeded
        message = result?.message
    }

    /// Every key always there, `null` when there is no value (docs/cli.md, "JSON (stable)").
    func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        try keys.encode(emailId, forKey: .emailId)
        try keys.encode(sender, forKey: .sender)
        try keys.encode(method, forKey: .method)
        try keys.encode(summary, forKey: .summary)
        try keys.encode(unsubscribedAt, forKey: .unsubscribedAt)
        try keys.encode(succeeded, forKey: .succeeded)
        try keys.encode(message, forKey: .message)
    }

    private enum CodingKeys: String, CodingKey { case emailId, sender, method, summary, unsubscribedAt, succeeded, message }
}

/// One entry of `vaultmail subscriptions --json`.
struct SubscriptionJSON: Encodable {
    var accountId: String
    var sender: String
    var name: String
    var listId: String?
    var last30Days: Int
    var last90Days: Int
    var lastRead: String?
    var latestEmailId: String
    var method: String
    var unsubscribedAt: String?
    var sinceUnsubscribed: Int

    init(_ item: Subscription) {
        accountId = item.accountId
        sender = item.senderAddress
        name = item.displayName
        listId = item.listId
        last30Days = item.recentCount
        last90Days = item.count
        lastRead = item.lastRead.map { $0.formatted(.iso8601) }
        latestEmailId = item.latestEmailId
        method = item.method.kind
        unsubscribedAt = item.unsubscribedAt.map { $0.formatted(.iso8601) }
        sinceUnsubscribed = item.sinceUnsubscribed
    }

    /// Every key always there, `null` when there is no value.
    func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        try keys.encode(accountId, forKey: .accountId)
        try keys.encode(sender, forKey: .sender)
        try keys.encode(name, forKey: .name)
        try keys.encode(listId, forKey: .listId)
        try keys.encode(last30Days, forKey: .last30Days)
        try keys.encode(last90Days, forKey: .last90Days)
        try keys.encode(lastRead, forKey: .lastRead)
        try keys.encode(latestEmailId, forKey: .latestEmailId)
        try keys.encode(method, forKey: .method)
        try keys.encode(unsubscribedAt, forKey: .unsubscribedAt)
        try keys.encode(sinceUnsubscribed, forKey: .sinceUnsubscribed)
    }

    private enum CodingKeys: String, CodingKey {
        case accountId, sender, name, listId, last30Days, last90Days, lastRead, latestEmailId, method, unsubscribedAt, sinceUnsubscribed
    }
}
