import Foundation

/// The application service for leaving mailing lists and newsletters (issue 33; ARCHITECTURE.md,
/// "The application layer"): the tool's `vaultmail unsubscribe` / `subscriptions` and the web
/// app's Unsubscribe action and Subscriptions page all ask it.
///
/// - `offer` says how unsubscribing from a message would work (`ListUnsubscribe.method`), for
///   the confirmation: one-click request to a host, an email to an address, or not offered and why.
/// - `unsubscribe` does it, only when a person asked: the RFC 8058 POST through
///   `OneClickUnsubscribeClient` (never a GET: opening a link tells the sender the mail was read),
///   or the mail a `mailto:` URI names, sent at once from the account that received the message
///   through the outbox (`ComposeEmailService`). What happened comes back in plain words, and a
///   success is remembered per sender (`Unsubscription`) so every face shows "Unsubscribed".
/// - `subscriptions` lists the senders of bulk mail of the last 90 days with their volume.
public struct Unsubscribe: Sendable {
    /// How far back the Subscriptions view counts, and the recent part of it.
    public static let windowDays = 90
    public static let recentDays = 30

    private let emails: any EmailRepository
    private let records: any SubscriptionRepository
    private let client: any OneClickUnsubscribeClient
    private let sending: ComposeEmailService
    private let clock: any WallClock

    public init(
        emails: any EmailRepository, records: any SubscriptionRepository, client: any OneClickUnsubscribeClient,
        sending: ComposeEmailService, clock: any WallClock
    ) {
        self.emails = emails
        self.records = records
        self.client = client
        self.sending = sending
        self.clock = clock
    }

    /// How unsubscribing from the email `id` (or from the newest message of the conversation `id`
    /// that has list headers) would work. Throws `UnsubscribeError.notFound`, or `.notOffered`
    /// when no message of it has a List-Unsubscribe or List-Id header.
    public func offer(id: String) async throws -> UnsubscribeOffer {
        var candidates: [Email]
        if let email = try await emails.getEmail(id: id) {
            candidates = [email]
        } else {
            candidates = try await emails.getEmails(threadId: id).filter { $0.sendState == .none }
            guard !candidates.isEmpty else { throw UnsubscribeError.notFound(id: id) }
            candidates.sort { $0.dateReceived > $1.dateReceived }
        }
        for email in candidates {
            guard let headers = try await records.listHeaders(emailId: email.id) else { continue }
            let key = headers.senderKey(fromAddress: email.fromAddress)
            return UnsubscribeOffer(
                emailId: email.id, accountId: email.accountId, date: email.dateReceived,
                sender: Participant(name: email.fromName, email: email.fromAddress), senderKey: key,
                name: headers.name(senderName: email.fromName, senderAddress: email.fromAddress), listId: headers.listId, method: headers.method,
                unsubscribedAt: try await records.unsubscription(accountId: email.accountId, senderKey: key)?.date)
        }
        throw UnsubscribeError.notOffered(reason: "the message has no List-Unsubscribe header: it does not come from a mailing list or newsletter that says how to leave it")
    }

    /// Of these conversations (a page of the list), those whose newest list mail offers a way
    /// to unsubscribe that VaultMail uses, not taken yet: thread id → that email's id. What the
    /// list's rows offer; the confirmation and the request are `offer` and `unsubscribe`'s.
    public func offered(threadIds: [String]) async throws -> [String: String] {
        try await records.newestListMail(threadIds: threadIds).compactMapValues { entry in
            if entry.unsubscribed { return nil }
            if case .notOffered = entry.headers.method { return nil }
            return entry.emailId
        }
    }

    /// Unsubscribes as `offer` describes. Throws `.notOffered` (with the reason) when the
    /// sender offers no way VaultMail uses, and what `offer` throws; a request or mail that
    /// did not succeed is a result, not an error (`UnsubscribeResult.succeeded` is false).
    public func unsubscribe(id: String) async throws -> UnsubscribeResult {
        let offer = try await offer(id: id)
        let outcome: UnsubscribeOutcome
        switch offer.method {
        case .notOffered(let reason):
            throw UnsubscribeError.notOffered(reason: reason)
        case .oneClick(let url):
            let host = url.host ?? url.absoluteString
            do {
                let status = try await client.postOneClick(to: url)
                outcome = (200..<300).contains(status) ? .done(host: host, status: status) : .answered(host: host, status: status)
            } catch {
                outcome = .unreachable(host: host, reason: "\(error)")
            }
        case .mail(let mailto):
            var content = DraftContent(accountId: offer.accountId)
            content.to = mailto.to
            content.subject = mailto.subject.isEmpty ? "unsubscribe" : mailto.subject
            content.body = mailto.body
            let emailId = try await sending.saveForSending(content, html: nil, attachments: [])
            try await sending.queueForSending(emailId: emailId)
            do {
                try await sending.executeSend(emailId: emailId)
                outcome = .mailSent(to: mailto.to)
            } catch let ComposeError.notSent(_, state, reason) where state == .queued {
                outcome = .mailQueued(to: mailto.to, reason: reason)
            } catch let ComposeError.notSent(_, _, reason) {
                outcome = .mailFailed(to: mailto.to, reason: reason)
            }
        }
        if outcome.succeeded {
            try await records.recordUnsubscription(Unsubscription(
                accountId: offer.accountId, senderKey: offer.senderKey, date: clock.now, method: offer.method.kind))
        }
        return UnsubscribeResult(offer: offer, outcome: outcome)
    }

    /// The senders of bulk mail (List-Unsubscribe or List-Id) of the last `windowDays`, the
    /// most messages first, each with whether and when the person unsubscribed.
    public func subscriptions() async throws -> [Subscription] {
        let now = clock.now
        let list = try await records.subscriptions(
            since: now.addingTimeInterval(-Double(Self.windowDays) * 86_400),
            recentSince: now.addingTimeInterval(-Double(Self.recentDays) * 86_400))
        return list.sorted { ($0.count, $0.latestDate) > ($1.count, $1.latestDate) }
    }
}
