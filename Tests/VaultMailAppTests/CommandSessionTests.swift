import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailStore
import VaultMailTesting

@MainActor
@Suite("The command layer of `vaultmail` (issue 7)")
struct CommandSessionTests {
    /// A session over a fresh home directory with one account and a few conversations.
    func session(emails count: Int = 3) async throws -> (CommandSession, URL) {
        try await CLIFixture.session { accountId in
            (0..<count).map { n in
                var email = MailFixtures.email(accountId: accountId, number: n, threadId: "\(n)abc\(n)", from: "p\(n)@x.org", fromName: "Person \(n)")
                email.references = "<root@x.org>"
                return email
            }
        }
    }

    @Test("AC-U-03: timestamps read \"3:42 PM\", \"Yesterday\", \"Tue\", \"Jan 15\", \"1/15/24\"")
    func relativeDates() throws {
        let utc = TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        func date(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 12, _ min: Int = 0) -> Date {
            calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: min))!
        }
        let dates = RelativeDate(now: date(2026, 1, 22, 18), timeZone: utc)  // a Thursday
        #expect(dates.string(for: date(2026, 1, 22, 15, 42)) == "3:42 PM")
        #expect(dates.string(for: date(2026, 1, 21, 23, 59)) == "Yesterday")
        #expect(dates.string(for: date(2026, 1, 20)) == "Tue")
        #expect(dates.string(for: date(2026, 1, 15)) == "Jan 15")
        #expect(dates.string(for: date(2024, 1, 15)) == "1/15/24")
    }

    @Test("A thread row fits 80 columns and marks unread, starred and attachments with symbols")
    func rowLayout() {
        let participants = Participant.encode([Participant(name: "John Smith", email: "j@x"), Participant(name: "Sarah Lee", email: "s@x")])
        let thread = EmailThread(id: String(repeating: "ab", count: 32), accountId: "a", subject: "A rather long subject line that keeps going",
                                 latestDate: MailFixtures.referenceDate, messageCount: 3, unreadCount: 1, isStarred: true,
                                 hasAttachments: true, snippet: "and a preview\nwith a newline", participants: participants)
        let row = ThreadRow.render(thread, dates: RelativeDate(now: MailFixtures.referenceDate, timeZone: TimeZone(identifier: "UTC")!))
        #expect(row.count == 80)
        #expect(row.hasPrefix("●★+  abababab"))
        let muted = ThreadRow.render(thread, dates: RelativeDate(now: MailFixtures.referenceDate, timeZone: TimeZone(identifier: "UTC")!), muted: true)
        #expect(muted.hasPrefix("●★+⊘ abababab") && muted.count == 80, "NOTIF-11: \(muted)")
        #expect(row.contains("John, Sarah (3)"))
        #expect(row.hasSuffix("12:00 PM"))
        #expect(!row.contains("\n"))
    }

    @Test("A row with wide characters (CJK, emoji, combining marks) still fits 80 columns, counted as a terminal shows them", arguments: [
        ("山田 太郎", "会議の議題について話し合いましょう、来週の予定も確認してください", "資料を添付します"),
        ("Zoë 🎉", "🎉 Launch party 🚀 on Friday 🥳🥳🥳", "Bring 🍕 and 🎂 please, everyone is invited"),
        ("Ма́рия", "Приве́т, как дела? Это длинная тема письма", "e\u{301}e\u{301}e\u{301} combining accents"),
    ])
    func wideRows(name: String, subject: String, preview: String) {
        let participants = Participant.encode([Participant(name: name, email: "p@x")])
        let thread = EmailThread(id: String(repeating: "cd", count: 32), accountId: "a", subject: subject, latestDate: MailFixtures.referenceDate,
                                 messageCount: 1, unreadCount: 1, snippet: preview, participants: participants)
        let row = ThreadRow.render(thread, dates: RelativeDate(now: MailFixtures.referenceDate, timeZone: TimeZone(identifier: "UTC")!))
        #expect(DisplayWidth.of(row) == 80, "\(row) is \(DisplayWidth.of(row)) columns")
        #expect(row.hasSuffix("12:00 PM"))
    }

    @Test("Display width: wide characters two columns, combining marks none")
    func displayWidth() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("🎉") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("👩‍👩‍👧") == 2)
        #expect(DisplayWidth.cut("日本語のテキスト", 7) == "日本語…")
    }

    @Test("`threads --json` has the documented fields; `show --json` adds the emails")
    func json() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        var query = CommandSession.ThreadQuery()
        query.json = true
        let page = try ToolJSON.object(try await session.threads(query))
        #expect(Set(page.keys) == ["threads", "nextCursor", "hasMore"], "nextCursor is there, null on the last page")
        let first = try #require((page["threads"] as? [[String: Any]])?.first)
        #expect(Set(first.keys) == ["id", "accountId", "subject", "participants", "snippet", "latestDate",
                                    "messageCount", "unreadCount", "isStarred", "hasAttachments", "category", "isMuted"])
        #expect(first["isMuted"] as? Bool == false)
        #expect(first["category"] is NSNull, "an uncategorized thread says category: null")
        #expect((first["latestDate"] as? String)?.hasSuffix("Z") == true)
        let shown = try ToolJSON.object(try await session.show("2abc", json: true))
        let email = try #require((shown["emails"] as? [[String: Any]])?.first)
        #expect(Set(email.keys) == ["id", "messageId", "from", "to", "cc", "subject", "date", "isRead", "isStarred",
                                    "inReplyTo", "references", "bodyPlain", "attachments", "category", "categorySource", "categoryReason",
                                    "crypto"],
                "every key, null when empty")
        let crypto = try #require(email["crypto"] as? [String: Any])
        #expect(Set(crypto.keys) == ["encryption", "signature", "signer", "signatureKeyId", "summary"])
        #expect(crypto["encryption"] as? String == "not-encrypted" && crypto["signature"] as? String == "not-signed" && crypto["signer"] is NSNull,
                "a plain message: \(crypto)")
        #expect(email["categorySource"] is NSNull, "not categorized yet")
        #expect(email["references"] as? [String] == ["<root@x.org>"])
    }

    @Test("NOTIF-11: a muted conversation is marked in `threads` (⊘), in `threads --json` and `show --json` (isMuted), and in `show`; the others are not")
    func mutedMarks() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        try await session.notificationSettings.mute(threadIds: ["1abc1"])
        let rows = try await session.threads(CommandSession.ThreadQuery()).split(separator: "\n")
        #expect(rows.count == 3)
        for row in rows {
            #expect(row.contains(" 1abc1 ") == (row.prefix(4).last == "⊘"), "\(row)")
        }
        var query = CommandSession.ThreadQuery()
        query.json = true
        let threads = try #require(try ToolJSON.object(try await session.threads(query))["threads"] as? [[String: Any]])
        #expect(Dictionary(uniqueKeysWithValues: threads.map { ($0["id"] as? String ?? "", $0["isMuted"] as? Bool) })
                == ["0abc0": false, "1abc1": true, "2abc2": false])
        #expect(try ToolJSON.object(try await session.show("1abc", json: true))["isMuted"] as? Bool == true)
        #expect(try ToolJSON.object(try await session.show("2abc", json: true))["isMuted"] as? Bool == false)
        #expect(try await session.show("1abc", json: false).split(separator: "\n")[1].hasSuffix(" · muted"))
        #expect(!(try await session.show("2abc", json: false).contains("muted")))
    }

    @Test("Thread ids can be shortened to a unique prefix; unknown or ambiguous ones say so")
    func prefixes() async throws {
        let (session, home) = try await session(emails: 12)
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(try await session.threadId("2abc") == "2abc2")
        await #expect { try await session.threadId("9zz") } throws: { ($0 as? CommandError)?.description.contains("no thread") == true }
        await #expect { try await session.threadId("1") } throws: { ($0 as? CommandError)?.isUsage == true }
    }

    @Test("Thread actions report success, and every failure with its reason")
    func actions() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(try await session.apply(.read, to: ["0abc", "1abc"], using: session.dependencies.emails) == "read: 2 conversations done")
        #expect(try await session.dependencies.emails.getInboxUnreadCount() == 1)
        _ = try await session.apply(.archive, to: ["2abc"], using: session.dependencies.emails)
        #expect(try await session.dependencies.emails.getThread(id: "2abc2") != nil)
        await #expect(throws: CommandError.self) { try await session.apply(.read, to: [], using: session.dependencies.emails) }
    }

    /// SQLite's SQLITE_FULL as the store conforms it.
    struct FullDisk: StorageFailure, CustomStringConvertible {
        var isDiskFull: Bool { true }
        var description: String { "SQLite error 13: database or disk is full" }
    }

    @Test("Issue 34: an action the server did whose copy here could not follow (a full disk) is done (exit 0) and says so, never 'nothing was changed'")
    func doneOnServerWithFullDisk() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        let server = MockEmailRepository()
        await server.failing("archiveThread", error: DoneOnServer(action: "archive thread 2abc2", underlying: FullDisk()))
        let text = try await session.apply(.archive, to: ["2abc"], using: server)
        #expect(text.hasPrefix("archive: 1 conversation done\nDone on the server, but this computer's copy couldn't be updated because its disk is full. "
            + "Free some space on it; the next sync then brings it up to date.\n  Details: "), "\(text)")
        #expect(text.hasSuffix("Conversations: 2abc2"), "\(text)")
        #expect(!text.contains("nothing was changed"))
    }

    @Test("Issue 29: `read --folder` marks every unread conversation of that list read, and no other folder's; the outbox is refused")
    func markAllRead() async throws {
        let (session, home) = try await CLIFixture.session { accountId in
            [MailFixtures.email(accountId: accountId, number: 1, threadId: "1abc1", category: .promotions),
             MailFixtures.email(accountId: accountId, number: 2, threadId: "2abc2", category: .primary),
             MailFixtures.email(accountId: accountId, number: 3, threadId: "3abc3", category: .primary)]
        }
        defer { try? FileManager.default.removeItem(at: home) }
        let emails = session.dependencies.emails
        let account = try await session.account(named: "work")
        let archive = try #require(try await emails.getFolders(accountId: account.id).first { $0.folderType == .archive })
        try await emails.saveEmails([MailFixtures.incoming(MailFixtures.email(accountId: account.id, number: 4, threadId: "4abc4"), in: [archive])])
        var query = CommandSession.ThreadQuery()
        query.category = .primary
        #expect(try await session.markAllRead(query, using: emails) == "read: 2 conversations done")
        #expect(try await emails.getThread(id: "1abc1")?.isUnread == true, "another tab's conversation was marked read")
        query.category = nil
        #expect(try await session.markAllRead(query, using: emails) == "read: 1 conversation done")
        #expect(try await emails.getInboxUnreadCount() == 0)
        #expect(try await emails.getThread(id: "4abc4")?.isUnread == true, "the archive's conversation was marked read")
        query.folder = "outbox"
        await #expect { try await session.markAllRead(query, using: emails) } throws: { ($0 as? CommandError)?.isUsage == true }
    }

    @Test("Bad input is a usage error with a clear message: quiet hours, plain to a remote host, ports, categories")
    func validation() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        for bad in ["25:00-07:00", "22:00", "7-8", "22:00-22:00", "10:5-11:00"] {
            await #expect { try await session.quietHours(bad) } throws: { ($0 as? CommandError)?.isUsage == true }
        }
        #expect(try await session.quietHours("22:00-07:00").contains("overnight"))
        #expect(session.dependencies.settings.quietHoursStart == 1320 && session.dependencies.settings.quietHoursEnd == 420 && session.dependencies.settings.quietHoursEnabled)
        #expect(try await session.quietHours("off") == "Quiet hours are off.")
        var remotePlain = CommandSession.NewAccount(name: "x", email: "x@y.z", imap: "mail.example.com", smtp: "smtp.example.com",
                                                    credential: .passwordCommand("pass"))
        remotePlain.security = .plain
        await #expect { try await session.addAccount(remotePlain) } throws: { ($0 as? CommandError)?.isUsage == true }
        var badPort = CommandSession.NewAccount(name: "y", email: "x@y.z", imap: "mail.example.com:99999", smtp: "s", credential: .passwordCommand("p"))
        badPort.security = .tls
        await #expect { try await session.addAccount(badPort) } throws: { "\($0)".contains("99999") }
        await #expect { try await session.setCategoryNotifications("spam", false) } throws: { ($0 as? CommandError)?.isUsage == true }
        await #expect { try await session.account(named: "nope") } throws: { "\($0)".contains("known accounts: work") }
    }

    @Test("`notify why` explains the decision and the rule; an email never evaluated says so")
    func why() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        let email = try #require(try await session.dependencies.emails.getEmails(threadId: "1abc1").first)
        #expect(try await session.why(String(email.id.prefix(10))).contains("never evaluated"))
        try await session.dependencies.ledger.record([NotificationDecision(email: email, decidedAt: MailFixtures.referenceDate, outcome: .suppressed, rule: .quietHours)])
        let answer = try await session.why(email.id)
        #expect(answer.hasPrefix("Not notified"))
        #expect(answer.contains("quiet hours"))
        #expect(try await session.log(limit: 5, json: false).contains("quiet-hours"))
    }

    @Test("AC-SEC-03: removing an account leaves none of its rows")
    func removeAccount() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        _ = try await session.removeAccount(named: "work")
        #expect(try session.dependencies.database.rowCounts().values.reduce(0, +) == 0)
    }
}
