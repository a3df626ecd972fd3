import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

/// E-09: the tool killed (SIGKILL, as the OOM killer or a power-off would) while a model is
/// working leaves nothing half-written: the database passes SQLite's own integrity check
/// (read with Debian's `sqlite3`, not our code), no summary or vector is stored for the work
/// that was cut, the models are still installed and not reported damaged, and the next run
/// does the work in full.
@Suite("A process killed mid-inference (E-09)", .serialized)
struct AIInterruptionEndToEndTests {
    /// A conversation long enough that the writing model is still at work when it is killed.
    func deliverConversation(_ world: EndToEndWorld) throws {
        let people = ["Grace Hopper <grace@example.org>", "Alan Turing <alan@example.org>", "Katherine Johnson <kj@example.org>"]
        let lines = [
            "Can we move the design review of the billing service to Thursday afternoon? The room on Tuesday is taken.",
            "Thursday works for me, but I need the load-test figures from the staging cluster before then.",
            "I ran the load test yesterday: 1,800 requests per second with a p99 of 240 ms, the database was the bottleneck.",
            "Then let's decide on Thursday whether we shard the invoices table or add a read replica first.",
            "I'll write up both options with their cost by Wednesday evening so everyone can read them before the review.",
        ]
        var previous: [String] = []
        for (index, line) in lines.enumerated() {
            let id = "<billing-\(index)@example.org>"
            let headers = previous.isEmpty ? [] : ["In-Reply-To: \(previous[previous.count - 1])", "References: \(previous.joined(separator: " "))"]
            try world.deliver(EndToEndWorld.message(index == 0 ? "Billing design review" : "Re: Billing design review",
                                                    from: people[index % people.count], messageId: id, headers: headers, body: line,
                                                    written: Date().addingTimeInterval(Double(index - lines.count) * 600)))
            previous.append(id)
        }
    }

    /// Runs Debian's `sqlite3` on the tool's database (a second, independent reader).
    func sqlite(_ world: EndToEndWorld, _ sql: String) async throws -> String {
        let database = world.home.appendingPathComponent("vaultmail.sqlite").path
        let result = try await ProcessCapture.run("/usr/bin/sqlite3", [database, sql], environment: nil, input: nil,
                                                  includeErrors: true, timeout: .seconds(30))
        let text = String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(result.status == 0, "sqlite3 \(sql): \(text)")
        return text
    }

    /// Whether `pid` has the file ending in `suffix` mapped (llama.cpp maps its GGUF file
    /// when it loads the model).
    static func maps(_ pid: Int32, fileEndingIn suffix: String) -> Bool {
        guard let maps = try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8) else { return false }
        return maps.split(separator: "\n").contains { $0.hasSuffix(suffix) }
    }

    /// The processor time `pid` has used, in clock ticks (utime + stime of /proc/pid/stat).
    static func cpuTicks(_ pid: Int32) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    @Test("`vaultmail summarize` killed while the writing model works leaves no half-written summary, and the next run writes it",
          .timeLimit(.minutes(6)))
    func summarizeKilled() async throws {
        try await EndToEndWorld.with { world in
            let writer = try AIModelFixture.installedGenerationDirectory()
            let installed = try await world.vaultmail(["ai", "install", "smollm2-135m-instruct", writer.path])
            try #require(installed.status == 0, "\(installed.text)")
            try deliverConversation(world)
            try await world.addAccount()
            try #require(try await world.vaultmail(["sync"]).status == 0)
            let thread = try #require(try await world.inboxThreads().first { $0.subject.hasSuffix("Billing design review") })

            let summarizing = try ChildProcess(EndToEndWorld.binary, ["summarize", thread.id], environment: world.environment)
            try await kill(summarizing, whileMapping: ".gguf")
            #expect(summarizing.lines.isEmpty, "it printed a summary before it was killed: \(summarizing.allOutput)")

            #expect(try await sqlite(world, "PRAGMA integrity_check") == "ok")
            #expect(try await sqlite(world, "SELECT count(*) FROM threadSummary") == "0", "a summary was stored by the killed run")
            let status = try await world.vaultmail(["ai", "status"])
            #expect(status.status == 0 && !status.text.lowercased().contains("damaged"), "\(status.text)")
            #expect(status.text.contains("smollm2-135m-instruct"), "\(status.text)")

            let again = try await world.vaultmail(["summarize", thread.id, "--json"], errors: false, timeout: .seconds(240))
            try #require(again.status == 0, "\(again.text)")
            let summary = try ToolJSON.object(again.text)
            #expect(["model", "extractiveFallback"].contains(summary["kind"] as? String ?? ""), "\(summary)")
            #expect(((summary["text"] as? String) ?? "").count > 20, "\(summary)")
            #expect(try await sqlite(world, "SELECT count(*) FROM threadSummary") == "1")
        }
    }

    /// Waits until `process` has the file ending in `suffix` mapped and has used a further
    /// tenth of a second of processor time since (and `also` holds), then kills it.
    func kill(_ process: ChildProcess, whileMapping suffix: String, also: () async throws -> Bool = { true }) async throws {
        let pid = process.processIdentifier
        var loadedAt: Int?
        try await waitUntil("the model (\(suffix)) at work in \(process.name)", timeout: .seconds(120), every: .milliseconds(5)) {
            guard process.isRunning else {
                throw ChildProcess.Failure(description: "it ended before it could be killed: \(process.allOutput)")
            }
            guard let ticks = Self.cpuTicks(pid), Self.maps(pid, fileEndingIn: suffix) else { return false }
            if loadedAt == nil { loadedAt = ticks }
            return ticks - (loadedAt ?? ticks) >= 10 ? try await also() : false
        }
        process.signal(SIGKILL)
        try await waitUntil("the killed process gone", timeout: .seconds(30), every: .milliseconds(20)) { !process.isRunning }
    }

    @Test("`vaultmail search --semantic` killed while the sentence model embeds leaves every email's vectors whole or absent; the next search completes them",
          .timeLimit(.minutes(6)))
    func embeddingKilled() async throws {
        try await EndToEndWorld.with { world in
            let model = try AIModelFixture.installedMiniLMDirectory()
            let installed = try await world.vaultmail(["ai", "install", "all-minilm-l6-v2"] + AIModelFixture.miniLMFiles.map { model.appendingPathComponent($0).path })
            try #require(installed.status == 0, "\(installed.text)")
            let topics = ["the roof repair quote", "the school trip in May", "the quarterly tax return", "a bug in the login page",
                          "the choir rehearsal schedule", "the new espresso machine", "the lease renewal", "a birthday party on Saturday"]
            for index in 0..<80 {
                let topic = topics[index % topics.count]
                let paragraph = "About \(topic): here is what I found out today, message \(index). "
                    + "I spoke with the people involved and wrote down their answers so we can decide together. "
                try world.deliver(EndToEndWorld.message("Note \(index) on \(topic)", from: "Person \(index % 7) <p\(index % 7)@example.org>",
                                                        body: String(repeating: paragraph, count: 6)))
            }
            try await world.addAccount()

            try #require(try await world.vaultmail(["sync"]).status == 0)
            // Search by meaning first embeds what is not embedded yet: killed while it does.
            let searching = try ChildProcess(EndToEndWorld.binary, ["search", "--semantic", "fixing the roof"], environment: world.environment)
            // … after it stored some emails' vectors (a batch is 16 emails), before the last.
            try await kill(searching, whileMapping: "model.safetensors") {
                Int(try await sqlite(world, "SELECT count(DISTINCT emailId) FROM emailEmbedding")) ?? 0 >= 16
            }
            let stored = Int(try await sqlite(world, "SELECT count(DISTINCT emailId) FROM emailEmbedding")) ?? 0
            #expect(stored < 80, "the search finished embedding before it was killed")

            #expect(try await sqlite(world, "PRAGMA integrity_check") == "ok")
            // Every email's chunks are 0…n-1, all there, or it has none.
            let broken = "SELECT count(*) FROM (SELECT emailId FROM emailEmbedding GROUP BY emailId HAVING max(chunk) + 1 != count(*))"
            #expect(try await sqlite(world, broken) == "0", "an email's vectors were half written")
            let status = try await world.vaultmail(["ai", "status"])
            #expect(status.status == 0 && !status.text.lowercased().contains("damaged"), "\(status.text)")

            let again = try await world.vaultmail(["search", "--semantic", "--json", "fixing the roof"], errors: false, timeout: .seconds(240))
            try #require(again.status == 0, "\(again.text)")
            let first = try #require((try ToolJSON.object(again.text)["results"] as? [[String: Any]])?.first?["subject"] as? String)
            #expect(first.contains("the roof repair quote"), "\(again.text)")
            #expect(try await sqlite(world, broken) == "0")
            #expect(try await sqlite(world, "SELECT count(*) FROM email WHERE id NOT IN (SELECT emailId FROM emailEmbedding)") == "0",
                    "emails left without vectors after the second search")
        }
    }
}
