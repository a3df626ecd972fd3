import ArgumentParser
import Foundation
import VaultMailApp
import VaultMailCore

struct ReplySuggestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reply-suggest",
        abstract: "Suggest up to three short replies to a conversation's latest message, written on this machine.",
        discussion: """
            With the writing model installed (`vaultmail ai download smollm2-135m-instruct`) the replies are written \
            for the message, in its language; without it, they are your own earlier replies to similar messages. \
            Each is printed as soon as it is ready. See docs/ai.md.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The thread id (or a unique prefix).") var threadId: String
    @Flag(help: "JSON: threadId, emailId, language, source, suggestions [{text, intent}], notice (null when empty).") var json = false

    @MainActor
    func run() async throws {
        let session = try global.session()
        try await session.replySuggest(threadId, json: json, generator: session.textGenerator, embedder: session.textEmbedder) { line in
            // Written at once (not buffered), so each suggestion shows as soon as it is ready.
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
    }
}

struct SummarizeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summarize",
        abstract: "Summarize a conversation in two to four sentences, on this machine.",
        discussion: """
            The summary is kept with the conversation and made again only when new mail arrives (or with --refresh). \
            Without the writing model it is the conversation's key sentences, labelled as such. See docs/ai.md.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The thread id (or a unique prefix).") var threadId: String
    @Flag(help: "JSON: threadId, text, kind (model | extractive), modelId, messageCount, latestEmailId, createdAt.") var json = false
    @Flag(help: "Make it again even when the stored one is current.") var refresh = false

    @MainActor
    func run() async throws {
        let session = try global.session()
        emit(try await session.summarize(threadId, json: json, refresh: refresh, generator: session.textGenerator,
                                         embedder: session.textEmbedder))
    }
}
