import Foundation
import Testing
import VaultMailApp
import VaultMailCore
import VaultMailTesting

@MainActor
@Suite("`vaultmail reply-suggest` and `vaultmail summarize` (issue 16)")
struct WritingCommandTests {
    /// A conversation of three messages (Anna asks, Bob answers, Anna decides) and a lone one.
    func session() async throws -> (CommandSession, URL) {
        try await CLIFixture.session { accountId in
            func email(_ number: Int, thread: String, from: String, name: String, body: String) -> Email {
                var email = MailFixtures.email(accountId: accountId, number: number, threadId: thread, from: from, fromName: name, subject: "Budget")
                email.bodyPlain = body
                return email
            }
            return [
                email(1, thread: "b0d9e7", from: "anna@example.org", name: "Anna Berg",
                      body: "Hi all,\n\nWe need the Q3 budget before the board meeting on Friday. Who can prepare it?\n\nAnna"),
                email(2, thread: "b0d9e7", from: "bob@example.org", name: "Bob Stone", body: "I can prepare it by Thursday."),
                email(3, thread: "b0d9e7", from: "anna@example.org", name: "Anna Berg",
                      body: "Great. We agreed that Bob prepares the budget by Thursday and Ada reviews it on Friday morning. Can you meet at 3pm tomorrow?"),
                email(4, thread: "10ae", from: "carol@example.net", name: "Carol", body: "Could you read the report?"),
            ]
        }
    }

    @Test("reply-suggest prints each suggestion as it is ready, numbered; --json has every key")
    func replySuggest() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        let writer = ScriptedTextGenerator(rules: [
            .init(match: "says yes", answer: ", 3pm tomorrow works for me."),
            .init(match: "another time", answer: " meet at the Ritz instead?"),
            .init(match: "asks one short question", answer: " tell me how long we meet tomorrow?"),
        ])
        var lines: [String] = []
        try await session.replySuggest("b0d9", json: false, generator: writer, embedder: nil) { lines.append($0) }
        #expect(lines == ["1. Yes, that works for me.", "2. That doesn't work for me; could we find another time?",
                          "3. Could you tell me how long we meet tomorrow?"])

        var output: [String] = []
        try await session.replySuggest("b0d9e7", json: true, generator: writer, embedder: nil) { output.append($0) }
        #expect(output.count == 1, "JSON is printed once, at the end")
        let object = try ToolJSON.object(output[0])
        #expect(Set(object.keys) == ["threadId", "emailId", "language", "source", "suggestions", "notice"])
        #expect(object["threadId"] as? String == "b0d9e7")
        #expect(object["source"] as? String == "model")
        #expect(object["language"] as? String == "en")
        #expect(object["notice"] is NSNull)
        let suggestions = try #require(object["suggestions"] as? [[String: Any]])
        #expect(suggestions.map { $0["intent"] as? String } == ["accept", "alternative", "question"])
    }

    @Test("reply-suggest without a model says how to get suggestions; an unknown thread is a clear error")
    func replySuggestWithoutModel() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        var lines: [String] = []
        try await session.replySuggest("10ae", json: false, generator: nil, embedder: nil) { lines.append($0) }
        #expect(lines == [AIError.modelNotInstalled(modelId: AIModelCatalog.generationModelId, feature: "smart replies").description])
        var output: [String] = []
        try await session.replySuggest("10ae", json: true, generator: nil, embedder: nil) { output.append($0) }
        let object = try ToolJSON.object(try #require(output.first))
        #expect(object["source"] as? String == "none")
        #expect((object["suggestions"] as? [Any])?.isEmpty == true)
        #expect(object["emailId"] is String)

        do {
            try await session.replySuggest("ffff", json: false, generator: nil, embedder: nil) { _ in }
            Issue.record("an unknown thread id must fail")
        } catch let error as CommandError {
            #expect(error.description == "no thread with id 'ffff'; `vaultmail threads` shows the ids")
            #expect(!error.isUsage)
        }
    }

    @Test("summarize: extractive without a model, labelled; the model's when installed; stored until new mail; --json has every key")
    func summarize() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        let extractive = try await session.summarize("b0d9", json: false, refresh: false, generator: nil, embedder: nil)
        #expect(extractive.contains("Anna: We agreed that Bob prepares the budget by Thursday and Ada reviews it on Friday morning."))
        #expect(extractive.hasSuffix("Key sentences (extractive: no writing model installed; `vaultmail ai download smollm2-135m-instruct` for a written one)"))

        let rephrased = "Anna needs the Q3 budget before the board meeting on Friday. Bob can prepare it by Thursday. "
            + "Anna agreed that Bob prepares the budget by Thursday and Ada reviews it on Friday morning, and asks to meet at 3pm tomorrow."
        let writer = ScriptedTextGenerator(fallback: rephrased)
        let written = try await session.summarize("b0d9", json: false, refresh: false, generator: writer, embedder: nil)
        #expect(written == rephrased + "\n\nWritten by the on-device model (scripted-writer)",
                "key sentences made for want of a model are written again once one is installed")
        #expect(writer.requests.count == 1)
        #expect(try await session.summarize("b0d9", json: false, refresh: false, generator: writer, embedder: nil) == written)

        let object = try ToolJSON.object(try await session.summarize("b0d9e7", json: true, refresh: false, generator: writer, embedder: nil))
        #expect(Set(object.keys) == ["threadId", "text", "kind", "modelId", "messageCount", "latestEmailId", "createdAt"])
        #expect(object["kind"] as? String == "model")
        #expect(object["messageCount"] as? Int == 3)
        #expect((object["createdAt"] as? String)?.hasSuffix("Z") == true)
        #expect(writer.requests.count == 1)

        let lone = try ToolJSON.object(try await session.summarize("10ae", json: true, refresh: false, generator: nil, embedder: nil))
        #expect(lone["modelId"] is NSNull && lone["kind"] as? String == "extractive")
        await #expect(throws: CommandError.self) { try await session.summarize("zz", json: false, refresh: false, generator: nil, embedder: nil) }
    }

    /// The tool built beside the tests.
    static let tool = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/vaultmail").path

    @Test("The built tool: both commands without a model, exit codes, and what an unknown thread id says", .timeLimit(.minutes(5)))
    func builtTool() async throws {
        let (session, home) = try await session()
        defer { try? FileManager.default.removeItem(at: home) }
        // Models only from this home's empty folder, whatever the machine has installed.
        var environment = ProcessInfo.processInfo.environment
        environment["VAULTMAIL_MODELS_DIR"] = home.appendingPathComponent("models").path
        func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
            let result = try await ProcessCapture.run(Self.tool, ["--home", home.path] + arguments, environment: environment, input: nil,
                                                      includeErrors: true, timeout: .seconds(50))
            return (result.status, String(decoding: result.output, as: UTF8.self))
        }
        _ = session
        let replies = try await run(["reply-suggest", "b0d9"])
        #expect(replies.status == 0)
        #expect(replies.output.contains("Download a model to enable smart replies: run `vaultmail ai download smollm2-135m-instruct`"))
        let summary = try await run(["summarize", "b0d9"])
        #expect(summary.status == 0)
        #expect(summary.output.contains("Anna: We agreed that Bob prepares the budget by Thursday"))
        #expect(summary.output.contains("Key sentences (extractive"))
        let unknown = try await run(["summarize", "ffff"])
        #expect(unknown.status == 1)
        #expect(unknown.output.contains("error: no thread with id 'ffff'; `vaultmail threads` shows the ids"))
        let usage = try await run(["reply-suggest"])
        #expect(usage.status == 2)
    }
}
