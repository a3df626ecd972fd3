import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailStore
import VaultMailTesting

@MainActor
@Suite("`vaultmail search` (issue 14)")
struct SearchCommandTests {
    /// A session over a fresh home with one account and a few conversations about invoices.
    func session() async throws -> (CommandSession, URL) {
        try await CLIFixture.session { accountId in
            (0..<30).map { n in
                var email = MailFixtures.email(accountId: accountId, number: n, threadId: "\(n)abc", from: "p\(n)@x.org", fromName: "Person \(n)")
                email.bodyPlain = n % 2 == 0 ? "The invoice number \(n) is attached." : "Lunch on Friday?"
                return email
            }
        }
    }

    @Test("Rows as `threads` prints them, each with its snippet, matches marked; a cursor line when there is more")
    func text() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        var request = CommandSession.SearchRequest(query: "invoice")
        request.limit = 10
        let lines = try await session.search(request).split(separator: "\n").map(String.init)
        #expect(lines.count == 21, "10 rows, their snippets, the cursor line")
        #expect(lines[0].contains("Person 28"))
        #expect(lines[1].contains("[invoice]"))
        let more = try #require(lines.last)
        #expect(more.hasPrefix("More: vaultmail search 'invoice' --cursor "))
        #expect(try await session.search(.init(query: "zanzibar")) == "No conversation matches zanzibar.")
        var count = CommandSession.SearchRequest(query: "invoice")
        count.count = true
        #expect(try await session.search(count) == "15")
    }

    @Test("--json: the `threads --json` row plus matchedEmailId and the highlight segments; cursors page on")
    func json() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        var request = CommandSession.SearchRequest(query: "invoice")
        request.json = true
        request.limit = 10
        let object = try ToolJSON.object(try await session.search(request))
        let rows = try #require(object["results"] as? [[String: Any]])
        #expect(rows.count == 10)
        let first = rows[0]
        for key in ["id", "accountId", "subject", "participants", "latestDate", "messageCount", "unreadCount", "isStarred",
                    "hasAttachments", "isMuted", "matchedEmailId", "highlight"] {
            #expect(first[key] != nil, "missing \(key)")
        }
        let highlight = try #require(first["highlight"] as? [[String: Any]])
        #expect(highlight.contains { $0["text"] as? String == "invoice" && $0["match"] as? Bool == true })
        #expect(object["hasMore"] as? Bool == true)
        var ids = Set(rows.compactMap { $0["id"] as? String })
        var cursor = object["nextCursor"] as? String
        while let next = cursor {
            request.cursor = next
            let page = try ToolJSON.object(try await session.search(request))
            ids.formUnion((page["results"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
            cursor = page["nextCursor"] as? String
        }
        #expect(ids.count == 15)
        request.cursor = nil
        request.messages = true
        request.sort = .relevance
        let messages = try ToolJSON.object(try await session.search(request))
        #expect((messages["results"] as? [[String: Any]])?.first?["threadId"] != nil)
        #expect(messages["nextCursor"] as? String == "+10")
    }

    @Test("--limit all (issue 31): every result, written a page at a time as one JSON object; no 500 cap, no cursor")
    func all() async throws {
        let (session, home) = try await CLIFixture.session { accountId in
            (0..<620).map { n in
                var email = MailFixtures.email(accountId: accountId, number: n, threadId: "\(n)t", from: "p\(n)@x.org", fromName: "Person \(n)")
                email.bodyPlain = n % 100 == 7 ? "Lunch on Friday?" : "The invoice number \(n) is attached."
                return email
            }
        }
        defer { try? FileManager.default.removeItem(at: home) }
        var request = CommandSession.SearchRequest(query: "invoice")
        request.json = true
        request.all = true
        var chunks: [String] = []
        try await session.searchAll(request) { chunks.append($0) }
        #expect(chunks.count > 600, "written as each result is read, not as one string")
        let object = try ToolJSON.object(chunks.joined())
        let rows = try #require(object["results"] as? [[String: Any]])
        #expect(rows.count == 613)
        #expect(Set(rows.compactMap { $0["id"] as? String }).count == 613)
        #expect(object["hasMore"] as? Bool == false)
        #expect(object["query"] as? String == "invoice")

        request.messages = true
        var messages: [String] = []
        try await session.searchAll(request) { messages.append($0) }
        #expect((try ToolJSON.object(messages.joined())["results"] as? [[String: Any]])?.count == 613)

        request.query = "zanzibar"
        var none: [String] = []
        try await session.searchAll(request) { none.append($0) }
        #expect((try ToolJSON.object(none.joined())["results"] as? [[String: Any]])?.isEmpty == true)

        var text = CommandSession.SearchRequest(query: "lunch")
        text.all = true
        var lines: [String] = []
        try await session.searchAll(text) { lines.append($0) }
        #expect(lines.count == 7)
        #expect(!lines.joined().contains("More:"))

        text.cursor = "+10"
        await #expect(throws: CommandError.self) { try await session.searchAll(text) { _ in } }
    }

    @Test("A malformed query is a usage error (exit 2) that points at the part it could not read")
    func malformed() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        do {
            _ = try await session.search(.init(query: "invoice form:ada"))
            Issue.record("form: should not parse")
        } catch let error as CommandError {
            #expect(error.isUsage)
            #expect(error.description.contains("at character 9: unknown operator \"form:\""))
            #expect(error.description.hasSuffix("invoice form:ada\n          ^^^^^"))
        }
        var request = CommandSession.SearchRequest(query: "invoice")
        request.account = "nobody"
        await #expect(throws: CommandError.self) { try await session.search(request) }
    }
}
