import Foundation
import Testing
import VaultMailCore
import VaultMailTesting
@testable import VaultMailWeb

/// Issue 29 over HTTP: what the composer and the suggested replies answer when they cannot do
/// something: the words (what happened, what to do) and the technical detail apart, for the
/// script (JSON, the reply stream) and for a page without it (a disclosure).
@Suite("Web app: errors in people's words, over HTTP (issue 29)", .serialized)
struct WebPlainErrorsTests {
    @Test("Issue 29: a send refused for a bad address is 'Not sent' in words, the detail apart: in the script's JSON and, without it, on the composer page behind Details")
    func notSent() async throws {
        try await WebFixture.with { web in
            let (cookie, csrf) = try await web.signIn()
            let form = "csrf=\(csrf)&account=\(WebForm.escape(web.account.id))&to=ada%40%40example&subject=Hi&body=Hello&return=%2Fmail"
            let json = try await web.post("/compose/send", form, cookie: cookie, extra: [("Accept", "application/json")])
            #expect(json.status == 400)
            let reply = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any], "\(json.text)")
            let words = try #require(reply["error"] as? String)
            #expect(words.hasPrefix("Not sent: “ada@@example” in To can't be used: ")
                    && words.hasSuffix(". Write it as name@example.com or Name <name@example.com>."), "\(words)")
            let detail = try #require(reply["detail"] as? String, "the detail is sent beside the words")
            #expect(detail.hasPrefix("'ada@@example' in To cannot be used"), "\(detail)")

            let page = try await web.post("/compose/send", form, cookie: cookie)
            #expect(page.status == 303)
            let location = try #require(page.headers["location"])
            let composer = try await web.get(location, cookie: cookie)
            #expect(composer.text.contains("<div class=\"notice error problem\" role=\"alert\"><p>Not sent: “ada@@example” in To can&#39;t be used: "),
                    "\(composer.text)")
            #expect(composer.text.contains("<details class=\"problem-detail\"><summary>Details</summary><pre>&#39;ada@@example&#39; in To cannot be used"))
        }
    }

    @Test("Issue 34: an action done on the server whose copy here could not follow (a full disk) is done (200), its notice says so, the detail apart")
    func doneOnServer() {
        struct FullDisk: StorageFailure, CustomStringConvertible {
            var isDiskFull: Bool { true }
            var description: String { "SQLite error 13: database or disk is full" }
        }
        var result = BatchActionResult(succeeded: ["t1", "t2"])
        result.notUpdatedHere = [(id: "t2", error: DoneOnServer(action: "archive thread t2", underlying: FullDisk()))]
        let outcome = WebApp.outcome("archive", result, of: 2)
        #expect(outcome.done == 2 && outcome.failed.isEmpty && outcome.status == .ok)
        #expect(outcome.message == "Done on the server, but this computer's copy couldn't be updated because its disk is full. "
            + "Free some space on it; the next sync then brings it up to date.")
        #expect(outcome.detail?.contains("database or disk is full") == true)
    }

    @Test("Issue 29: suggested replies for a conversation that is gone: the stream's failure says so in words, the id only in the detail")
    func replyFailure() async throws {
        try await WebFixture.with(generator: ScriptedTextGenerator(rules: [])) { web in
            let (cookie, _) = try await web.signIn()
            let stream = try await web.get("/threads/gone-7f3a/replies?email=x&return=%2Fmail", cookie: cookie, headers: [("Accept", "text/event-stream")])
            let data = try #require(stream.text.components(separatedBy: "event: failure\ndata: ").last?.components(separatedBy: "\n").first,
                                    "\(stream.text)")
            let failure = try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: String], "\(data)")
            #expect(failure["error"] == "Replies could not be suggested. That conversation is no longer here: it may have been deleted or moved elsewhere.")
            #expect(failure["detail"]?.contains("gone-7f3a") == true, "the id is detail: \(failure)")
        }
    }
}
