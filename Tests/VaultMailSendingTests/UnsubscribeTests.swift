import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailIMAP
import VaultMailStore
import VaultMailTesting

/// Issue 33's one-click unsubscribe against real servers: the RFC 8058 POST as a local HTTPS
/// server records it, byte for byte, through the same TLS as mail; the mailto: way through the
/// account's SMTP server; what is remembered per sender for the Subscriptions view.
@Suite("Unsubscribe: RFC 8058 one-click POST and mailto: against real servers (issue 33)", .serialized)
struct UnsubscribeTests {
    /// A newsletter's header block, after the shape of a marketing platform's mail.
    static func newsletter(listUnsubscribe: String, post: String?, listId: String? = "Example News <news.example.com>",
                           messageId: String = "<\(UUID().uuidString)@news.example.com>") -> [UInt8] {
        var lines = [
            "Return-Path: <bounce-42@mail.news.example.com>",
            "From: Example News <news@news.example.com>",
            "To: ada@example.com",
            "Subject: This week at Example",
            "Date: Thu, 15 Jan 2026 12:00:00 +0000",
            "Message-ID: \(messageId)",
        ]
        if let listId { lines.append("List-Id: \(listId)") }
        lines.append("List-Unsubscribe: \(listUnsubscribe)")
        if let post { lines.append("List-Unsubscribe-Post: \(post)") }
        lines += ["MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8", "", "Hello readers.", ""]
        return Array(lines.joined(separator: "\r\n").utf8)
    }

    /// The store with one received newsletter (`raw`) in the inbox; returns its email.
    static func store(_ raw: [UInt8], fixture: ServerFixture, database: AppDatabase, number: Int = 1, date: Date? = nil) async throws -> Email {
        let email = MailFixtures.email(accountId: fixture.account.id, number: number, from: "news@news.example.com",
                                       fromName: "Example News", subject: "This week at Example", date: date ?? fixture.clock.now)
        let inbox = MailFixtures.standardFolders(accountId: fixture.account.id).of(.inbox)
        try await GRDBEmailRepository(database: database).saveEmails([
            IncomingEmail(email: email, links: [EmailFolder(emailId: email.id, folderId: inbox.id, uid: nil)], rawSource: raw),
        ])
        return email
    }

    static func service(_ database: AppDatabase, _ sending: MailSending, client: any OneClickUnsubscribeClient, clock: any WallClock) -> Unsubscribe {
        Unsubscribe(emails: GRDBEmailRepository(database: database), records: GRDBSubscriptionRepository(database: database),
                    client: client, sending: sending.compose, clock: clock)
    }

    @Test("RFC 8058 §3.1: one POST with exactly the body List-Unsubscribe=One-Click, form-encoded, no cookie, credentials or referer; remembered per sender")
    func oneClickPost() async throws {
        let fixture = try await ServerFixture()
        let https = try await RecordingHTTPSServer(certificates: fixture.dovecot.certificates)
        let (database, sending) = try fixture.sending()
        let target = https.url("/u/ab%2Fc?list=weekly&token=Zm9v")
        let email = try await Self.store(Self.newsletter(
            listUnsubscribe: "<mailto:leave@news.example.com?subject=unsubscribe>, <\(target.absoluteString)>",
            post: "List-Unsubscribe=One-Click"), fixture: fixture, database: database)
        let unsubscribe = Self.service(database, sending, client: TLSOneClickUnsubscribeClient(caFile: https.caFile), clock: fixture.clock)

        let offer = try await unsubscribe.offer(id: email.threadId)
        #expect(offer.confirmation == "Unsubscribe from Example News? Sends a one-click request to 127.0.0.1.")
        let result = try await unsubscribe.unsubscribe(id: email.id)
        #expect(result.outcome == .done(host: "127.0.0.1", status: 200))
        #expect(result.message == "Unsubscribed from Example News: 127.0.0.1 accepted the request.")

        let requests = try await https.waitForRequests(count: 1)
        #expect(requests.count == 1)
        let request = try #require(requests.first)
        #expect(request.method == "POST")
        #expect(request.target == "/u/ab%2Fc?list=weekly&token=Zm9v")
        #expect(request.version == "HTTP/1.1")
        #expect(request.headerNames == ["host", "content-type", "content-length", "connection"])
        #expect(request.header("Host") == "127.0.0.1:\(https.port)")
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(request.header("Content-Length") == "26")
        #expect(String(decoding: request.body, as: UTF8.self) == "List-Unsubscribe=One-Click")
        for name in ["cookie", "authorization", "referer", "origin"] { #expect(request.header(name) == nil) }
        // No mail went out: the one-click way is preferred.
        #expect(fixture.smtp.messages.isEmpty)

        let listed = try #require(try await unsubscribe.subscriptions().first)
        #expect(listed.senderKey == "list:news.example.com")
        #expect(listed.unsubscribedAt == fixture.clock.now)
        #expect(try await unsubscribe.offer(id: email.id).unsubscribedAt == fixture.clock.now)
        #expect(try await unsubscribe.offer(id: email.id).arrivedAfterUnsubscribing == false)

        // The sender did not stop: a later message is noted as having come after it.
        let later = try await Self.store(Self.newsletter(
            listUnsubscribe: "<\(target.absoluteString)>", post: "List-Unsubscribe=One-Click"), fixture: fixture, database: database,
            number: 2, date: fixture.clock.now.addingTimeInterval(3600))
        #expect(try await unsubscribe.offer(id: later.id).arrivedAfterUnsubscribing)
        #expect(try await unsubscribe.subscriptions().first?.sinceUnsubscribed == 1)
    }

    @Test("A redirect is the answer: not followed (no GET, no second request), reported with its status, not remembered")
    func redirectNotFollowed() async throws {
        let fixture = try await ServerFixture()
        let placeholder = "https://127.0.0.1:1/next"
        let https = try await RecordingHTTPSServer(statuses: ["/moved": (302, placeholder), "/gone": (404, nil)],
                                                   certificates: fixture.dovecot.certificates)
        let (database, sending) = try fixture.sending()
        let moved = try await Self.store(Self.newsletter(listUnsubscribe: "<\(https.url("/moved").absoluteString)>", post: "List-Unsubscribe=One-Click"),
                                         fixture: fixture, database: database)
        let unsubscribe = Self.service(database, sending, client: TLSOneClickUnsubscribeClient(caFile: https.caFile), clock: fixture.clock)
        let result = try await unsubscribe.unsubscribe(id: moved.id)
        #expect(result.outcome == .answered(host: "127.0.0.1", status: 302))
        #expect(result.message.contains("answered 302, a redirect, which VaultMail does not follow"))
        #expect(try await https.waitForRequests(count: 1).map(\.method) == ["POST"])
        #expect(try await unsubscribe.subscriptions().first?.unsubscribedAt == nil)
        #expect(https.requests.count == 1)
    }

    @Test("An untrusted certificate or no server: 'could not be reached' with the reason; https only")
    func unreachable() async throws {
        let https = try await RecordingHTTPSServer()
        // The system store does not trust the test CA.
        do {
            _ = try await TLSOneClickUnsubscribeClient(timeout: .seconds(10)).postOneClick(to: https.url("/u"))
            Issue.record("an untrusted certificate must be refused")
        } catch {
            #expect("\(error)".contains("127.0.0.1:\(https.port)"))
        }
        #expect(https.requests.isEmpty)
        await #expect { try await TLSOneClickUnsubscribeClient().postOneClick(to: URL(string: "http://127.0.0.1:1/u")!) } throws: {
            "\($0)".contains("only https") && "\($0)".contains("unencrypted")
        }
    }

    @Test("mailto: the mail the URI names goes out through the account's SMTP server: exact To, Subject and body; remembered")
    func mailto() async throws {
        let fixture = try await ServerFixture()
        let (database, sending) = try fixture.sending()
        // Mailman's shape: a web options page (never opened) and a -request address; no One-Click.
        let email = try await Self.store(Self.newsletter(
            listUnsubscribe: "<https://lists.example.net/mailman/options/dev>,\r\n <mailto:dev-request@lists.example.net?subject=unsubscribe&body=please%20remove%20me>",
            post: nil, listId: "Developers <dev.lists.example.net>"), fixture: fixture, database: database)
        let never = RecordingOneClickClient()
        let unsubscribe = Self.service(database, sending, client: never, clock: fixture.clock)
        #expect(try await unsubscribe.offer(id: email.id).method.summary == "Sends an email to dev-request@lists.example.net")
        let result = try await unsubscribe.unsubscribe(id: email.id)
        #expect(result.outcome == .mailSent(to: ["dev-request@lists.example.net"]))
        let received = try #require(try await fixture.smtp.waitForMessages(count: 1).first)
        #expect(received.recipients == ["dev-request@lists.example.net"])
        let message = try PythonEmailParser.parse(received.raw)
        #expect(message.to.map(\.email) == ["dev-request@lists.example.net"])
        #expect(message.subject == "unsubscribe")
        #expect(message.from.map(\.email) == ["ada@example.com"])
        #expect(message.text?.trimmingCharacters(in: .whitespacesAndNewlines) == "please remove me")
        #expect(never.urls.isEmpty)
        #expect(try await unsubscribe.subscriptions().first { $0.listId == "dev.lists.example.net" }?.unsubscribedAt == fixture.clock.now)
    }

    @Test("No way offered (a web page only): nothing is sent, and the error says why")
    func notOffered() async throws {
        let fixture = try await ServerFixture()
        let (database, sending) = try fixture.sending()
        let email = try await Self.store(Self.newsletter(listUnsubscribe: "<https://news.example.com/prefs?u=1>", post: nil),
                                         fixture: fixture, database: database)
        let never = RecordingOneClickClient()
        let unsubscribe = Self.service(database, sending, client: never, clock: fixture.clock)
        await #expect { try await unsubscribe.unsubscribe(id: email.id) } throws: {
            "\($0)".hasPrefix("unsubscribing is not offered: the sender offers only a web page")
        }
        #expect(never.urls.isEmpty)
        #expect(fixture.smtp.messages.isEmpty)
    }

    @Test("Subscriptions: senders of bulk mail with their 30- and 90-day volume and the last one read, most first")
    func subscriptionsVolume() async throws {
        let fixture = try await ServerFixture()
        let (database, sending) = try fixture.sending()
        let day = 86_400.0
        let now = fixture.clock.now
        for (number, age) in [1, 10, 40, 100].enumerated() {
            var email = try await Self.store(Self.newsletter(listUnsubscribe: "<mailto:off@news.example.com>", post: nil),
                                             fixture: fixture, database: database, number: number + 1, date: now.addingTimeInterval(-Double(age) * day))
            if age == 40 {
                email.isRead = true
                try await GRDBEmailRepository(database: database).setEmailsRead(ids: [email.id], isRead: true)
            }
        }
        // Another list, one message; and a person's mail (no list headers) is not listed.
        _ = try await Self.store(Self.newsletter(listUnsubscribe: "<mailto:x@deals.example.org>", post: nil, listId: "Deals <deals.example.org>"),
                                 fixture: fixture, database: database, number: 10, date: now.addingTimeInterval(-day))
        // Unsubscribed 20 days ago: the two newer messages are noted as having come since.
        try await GRDBSubscriptionRepository(database: database).recordUnsubscription(Unsubscription(
            accountId: fixture.account.id, senderKey: "list:news.example.com", date: now.addingTimeInterval(-20 * day), method: "mail"))
        let list = try await Self.service(database, sending, client: RecordingOneClickClient(), clock: fixture.clock).subscriptions()
        #expect(list.map(\.senderKey) == ["list:news.example.com", "list:deals.example.org"])
        let news = try #require(list.first)
        #expect((news.recentCount, news.count) == (2, 3))
        #expect(news.lastRead == now.addingTimeInterval(-40 * day))
        #expect(news.method == .mail(MailtoURI(to: ["off@news.example.com"])))
        #expect(news.unsubscribedAt == now.addingTimeInterval(-20 * day))
        #expect(news.sinceUnsubscribed == 2)
        #expect(list.last?.sinceUnsubscribed == 0)
    }
}

/// A one-click client that records the URLs it was asked to POST to and answers 200.
final class RecordingOneClickClient: OneClickUnsubscribeClient, @unchecked Sendable {
    // @unchecked: `recorded` is touched only under `lock`.
    private let lock = NSLock()
    private var recorded: [URL] = []
    var urls: [URL] { lock.withLock { recorded } }

    func postOneClick(to url: URL) async throws -> Int {
        lock.withLock { recorded.append(url) }
        return 200
    }
}
