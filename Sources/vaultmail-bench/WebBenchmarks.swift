import Foundation
import Logging
import VaultMailApp
import VaultMailCore
import VaultMailStore
import VaultMailTesting
import VaultMailWeb

/// `vaultmail-bench web`: the web app in this process over a 100K-email store (the store
/// suite's synthetic mailbox, in WAL on disk), measured as a browser sees it over loopback:
/// the inbox page, a 10-message HTML conversation, store commit → `change` event, the bytes
/// of a first visit (page, stylesheet, script, icon; no compression), opening the composer,
/// and recipient suggestions over 10,000 people the user wrote to.
enum WebBenchmarks {
    static func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-bench-web-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // The tracker shield first: it needs no store.
        try await ShieldBenchmarks.run()
        print("# web: the app served in-process on 127.0.0.1, requests over a real socket; times are request → whole reply")
        let size = 100_000
        let corpus = try await StoreBenchmarks.Corpus(path: directory.appendingPathComponent("store.sqlite").path)
        _ = try await corpus.grow(to: size, from: 0)
        let conversation = try await addHTMLConversation(corpus)
        let people = try await addContacts(corpus, count: 10_000)
        // Reading the people out of the mail, once per process (then on changes, in the background).
        Measure.report("web-contacts-load", try await Measure.medianMillis(runs: 5) {
            _ = try await GRDBContactSource(database: corpus.database).contacts()
        }, "ms", n: size + 20_000)
        guard let latest = try await corpus.emails.getEmails(threadId: conversation).last?.id else {
            throw HTTPTestClient.Failure(description: "the benchmark conversation is empty")
        }
        try await serve(corpus, home: directory.appendingPathComponent("home")) { port, cookie in
            let figures = [
                // The floor of this way of measuring: a new connection and a tiny reply.
                ("web-request-floor", "/favicon.ico"), ("web-inbox-page", "/mail"), ("web-list-fragment", "/mail/list?box=inbox&limit=25"),
                // Opened by the page script (the full page adds the list and the sidebar).
                ("web-conversation-10-html", "/mail/conversation?box=inbox&t=\(conversation)"),
                ("web-composer-new", "/compose"), ("web-composer-reply", "/compose?kind=reply&email=\(latest)"),
            ]
            for (figure, path) in figures {
                Measure.report(figure, try await Measure.medianMillis(runs: 30) { _ = try await get(port, path, cookie) }, "ms", n: size)
            }
            // The same over one kept-alive connection, as a browser asks: the server's own time.
            let kept = try HTTPKeptConnection(port: port)
            for (figure, path) in figures {
                Measure.report(figure + "-kept-alive", try await Measure.medianMillis(runs: 30) {
                    let reply = try await kept.get(path, headers: [("Cookie", cookie), ("Accept", "text/html")])
                    guard (200...303).contains(reply.status) else { throw HTTPTestClient.Failure(description: "\(path) answered \(reply.status)") }
                }, "ms", n: size)
            }
            let page = try await get(port, "/mail?box=inbox&t=\(conversation)", cookie)
            let frames = try await Measure.medianMillis(runs: 30) {
                for id in page.text.matches(of: /\/message\/([0-9a-f]{64})\/body/).map({ String($0.1) }) {
                    _ = try await get(port, "/message/\(id)/body", cookie)
                }
            }
            Measure.report("web-conversation-10-frames", frames, "ms", n: size)
            // Suggestions as the user types: one request per keystroke, over the people in the mail.
            for query in ["a", "ali", "smith", "zz-nobody"] {
                Measure.report("web-autocomplete-\(query)", try await Measure.medianMillis(runs: 30) {
                    let reply = try await kept.get("/compose/contacts?q=\(query)", headers: [("Cookie", cookie), ("Accept", "application/json")])
                    guard reply.status == 200 else { throw HTTPTestClient.Failure(description: "contacts answered \(reply.status)") }
                }, "ms", n: people)
            }
            try await commitToEvent(corpus, port: port, cookie: cookie, n: size)
            try await firstVisit(port: port, cookie: cookie, n: size)
        }
    }

    /// Messages sent from the account to `count` different people (two each), so the
    /// composer suggests among that many. Returns how many people the mail now holds.
    private static func addContacts(_ corpus: StoreBenchmarks.Corpus, count: Int) async throws -> Int {
        let first = ["Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Mallory", "Niaj", "Olivia", "Peggy", "Rupert", "Sybil", "Trent", "Victor", "Walter", "Zoe"]
        let last = ["Smith", "Jones", "Garcia", "Müller", "Rossi", "Dubois", "Novak", "Silva", "Kim", "Tanaka"]
        let sent = corpus.folders.of(.sent)
        for batchStart in stride(from: 0, to: count * 2, by: 1000) {
            let batch = (batchStart..<min(batchStart + 1000, count * 2)).map { index -> IncomingEmail in
                let person = index % count
                var email = MailFixtures.email(accountId: corpus.account.id, number: 7_000_000 + index, from: corpus.account.email,
                                               date: Date().addingTimeInterval(-Double(index) * 600))
                let name = "\(first[person % first.count]) \(last[(person / first.count) % last.count])"
                email.toAddresses = [Participant(name: name, email: "\(name.lowercased().replacingOccurrences(of: " ", with: "."))\(person)@example.org")]
                return MailFixtures.incoming(email, in: [sent], uid: UInt32(7_000_000 + index))
            }
            try await corpus.emails.saveEmails(batch)
        }
        return try await GRDBContactSource(database: corpus.database).contacts().count
    }

    /// A conversation of 10 HTML messages (a newsletter-like table layout, ~12 KB each).
    private static func addHTMLConversation(_ corpus: StoreBenchmarks.Corpus) async throws -> String {
        let thread = "bench-html-thread"
        let paragraph = "<p style=\"margin:0 0 12px;font-family:Arial\">Quarterly numbers are in: revenue up, costs down, and the <a href=\"https://example.org/report\">full report</a> is online. <b>Thanks</b> to everyone who helped.</p>"
        let html = "<table width=\"100%\" cellpadding=\"0\" cellspacing=\"0\"><tr><td align=\"center\"><table width=\"600\">"
            + String(repeating: "<tr><td>\(paragraph)<img src=\"https://tracker.example/p.gif\" width=\"1\" height=\"1\"></td></tr>", count: 40)
            + "</table></td></tr></table>"
        let emails = (0..<10).map { index -> IncomingEmail in
            var email = MailFixtures.email(accountId: corpus.account.id, number: 5_000_000 + index, threadId: thread,
                                           date: Date().addingTimeInterval(Double(index)), isRead: index < 9)
            email.bodyHTML = html
            return MailFixtures.incoming(email, in: [corpus.inbox], uid: UInt32(5_000_000 + index))
        }
        try await corpus.emails.saveEmails(emails)
        return thread
    }

    private static func serve(_ corpus: StoreBenchmarks.Corpus, home: URL, _ body: (Int, String) async throws -> Void) async throws {
        let app = await AppDependencies(database: corpus.database, center: MockNotificationCenter(), composeEmail: RecordingComposeEmail())
        var logger = Logger(label: "bench-web")
        logger.logLevel = .warning
        let sending = MailSending(database: corpus.database, credentials: FixedCredentialProvider(everyAccount: ""), undoDelaySeconds: { 5 },
                                  transport: RecordingMailTransport(), remoteMailbox: RecordingRemoteMailbox())
        let web = try await WebApp(configuration: WebConfiguration(port: 0, home: home), mail: app.webMail(compose: sending.compose, credentials: InMemoryCredentialStore()),
                                   logger: logger)
        let task = Task { try await web.run() }
        defer { task.cancel() }
        guard let port = await web.waitUntilServing(), let secret = try WebSecret.load(at: web.configuration.secretURL) else {
            throw HTTPTestClient.Failure(description: "the web app did not start")
        }
        let signIn = try await HTTPTestClient.request(port: port, method: "POST", path: "/signin",
                                                      headers: [("Origin", "null"), ("Content-Type", "application/x-www-form-urlencoded")],
                                                      body: "token=\(SignInToken.make(secret: secret))")
        guard let cookie = signIn.headers["set-cookie"]?.split(separator: ";").first.map(String.init) else {
            throw HTTPTestClient.Failure(description: "no session: \(signIn.status)")
        }
        try await body(port, cookie)
    }

    @discardableResult
    private static func get(_ port: Int, _ path: String, _ cookie: String) async throws -> HTTPTestClient.Reply {
        let reply = try await HTTPTestClient.request(port: port, path: path, headers: [("Cookie", cookie), ("Accept", "text/html")])
        guard (200...303).contains(reply.status) else { throw HTTPTestClient.Failure(description: "\(path) answered \(reply.status)") }
        return reply
    }

    /// A new email committed to the store → the `change` event on an open event stream, then
    /// the list fragment the page fetches to show the row.
    private static func commitToEvent(_ corpus: StoreBenchmarks.Corpus, port: Int, cookie: String, n: Int) async throws {
        var toEvent: [Double] = []
        var toRow: [Double] = []
        for round in 0..<20 {
            let stream = try EventStreamClient(port: port, cookie: cookie)
            defer { stream.close() }
            try await stream.waitFor("event: connection")
            let email = MailFixtures.email(accountId: corpus.account.id, number: 6_000_000 + round, date: Date().addingTimeInterval(3600))
            let clock = ContinuousClock()
            let start = clock.now
            try await corpus.emails.saveEmails([MailFixtures.incoming(email, in: [corpus.inbox], uid: UInt32(6_000_000 + round))])
            try await stream.waitFor("event: change")
            toEvent.append((clock.now - start).millis)
            let list = try await get(port, "/mail/list?box=inbox&limit=25", cookie)
            guard list.text.contains(email.threadId) else { throw HTTPTestClient.Failure(description: "the new row is not in the list") }
            toRow.append((clock.now - start).millis)
        }
        Measure.report("web-commit-to-event", Measure.median(toEvent), "ms", n: n)
        Measure.report("web-commit-to-row", Measure.median(toRow), "ms", n: n)
    }

    private static func firstVisit(port: Int, cookie: String, n: Int) async throws {
        let page = try await get(port, "/mail", cookie)
        var bytes = page.body.count
        for path in page.text.matches(of: /(?:href|src)="(\/assets\/[^"]+)"/).map({ String($0.1) }) {
            bytes += try await get(port, path, cookie).body.count
        }
        Measure.report("web-first-visit-bytes", Double(bytes) / 1024, "KB", n: n)
    }
}
