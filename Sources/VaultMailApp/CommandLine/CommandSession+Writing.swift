import Foundation
import VaultMailCore

extension CommandSession {
    /// The writing model smart replies and summaries use, over this home's models folder
    /// (nil until an engine is built in); loaded on first use.
    public var textGenerator: (any TextGenerator)? {
        AppDependencies.textGenerator(library: AppDependencies.modelManager(home: home))
    }

    /// `vaultmail reply-suggest THREAD-ID [--json]`: up to three short replies to the
    /// conversation's latest message from someone else. Human output goes to `output` a line
    /// at a time as each suggestion is ready ("1. Sure, …"), then the notice when there is one;
    /// JSON (every key of `ReplySuggestions`, null when empty) once at the end.
    public func replySuggest(_ threadPrefix: String, json: Bool, generator: (any TextGenerator)?, embedder: (any TextEmbedder)?,
                             output: (String) -> Void) async throws {
        let id = try await threadId(threadPrefix)
        let use = dependencies.smartReply(generator: generator, embedder: embedder)
        var shown = 0
        var final: ReplySuggestions?
        for try await suggestions in use.stream(threadId: id) {
            final = suggestions
            guard !json else { continue }
            while shown < suggestions.suggestions.count {
                output("\(shown + 1). \(suggestions.suggestions[shown].text)")
                shown += 1
            }
        }
        guard let final else { return }
        if json {
            output(try ThreadJSON.encode(ReplySuggestionsJSON(final)))
        } else if let notice = final.notice {
            output(final.suggestions.isEmpty ? notice : "(\(notice))")
        }
    }

    /// `vaultmail summarize THREAD-ID [--json] [--refresh]`: the conversation's summary (the
    /// stored one while no new mail arrived, unless `refresh`), then how it was made.
    public func summarize(_ threadPrefix: String, json: Bool, refresh: Bool, generator: (any TextGenerator)?,
                          embedder: (any TextEmbedder)?) async throws -> String {
        let id = try await threadId(threadPrefix)
        let use = dependencies.summarizing(generator: generator, embedder: embedder)
        let summary = try await use.summarize(threadId: id, refresh: refresh)
        if json { return try ThreadJSON.encode(ThreadSummaryJSON(summary)) }
        switch summary.kind {
        case .model:
            return "\(summary.text)\n\nWritten by the on-device model (\(summary.modelId ?? "unknown"))"
        case .extractive:
            return "\(summary.text)\n\nKey sentences (extractive: no writing model installed; "
                + "`vaultmail ai download \(generator?.modelId ?? AIModelCatalog.generationModelId)` for a written one)"
        case .extractiveFallback:
            return "\(summary.text)\n\nKey sentences (extractive: what the writing model wrote did not pass the checks against invented facts)"
        }
    }
}

/// The JSON of `vaultmail reply-suggest --json`: every key always present, null when empty.
struct ReplySuggestionsJSON: Encodable {
    var value: ReplySuggestions

    init(_ value: ReplySuggestions) { self.value = value }

    enum CodingKeys: String, CodingKey { case threadId, emailId, language, source, suggestions, notice }
    enum SuggestionKeys: String, CodingKey { case text, intent }

    func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        try keys.encode(value.threadId, forKey: .threadId)
        try keys.encode(value.emailId, forKey: .emailId)
        try keys.encode(value.language, forKey: .language)
        try keys.encode(value.source.rawValue, forKey: .source)
        var list = keys.nestedUnkeyedContainer(forKey: .suggestions)
        for suggestion in value.suggestions {
            var item = list.nestedContainer(keyedBy: SuggestionKeys.self)
            try item.encode(suggestion.text, forKey: .text)
            try item.encode(suggestion.intent.rawValue, forKey: .intent)
        }
        try keys.encode(value.notice, forKey: .notice)
    }
}

/// The JSON of `vaultmail summarize --json`: every key always present, null when empty;
/// `createdAt` in ISO 8601.
struct ThreadSummaryJSON: Encodable {
    var value: ThreadSummary

    init(_ value: ThreadSummary) { self.value = value }

    enum CodingKeys: String, CodingKey { case threadId, text, kind, modelId, messageCount, latestEmailId, createdAt }

    func encode(to encoder: any Encoder) throws {
        var keys = encoder.container(keyedBy: CodingKeys.self)
        try keys.encode(value.threadId, forKey: .threadId)
        try keys.encode(value.text, forKey: .text)
        try keys.encode(value.kind.rawValue, forKey: .kind)
        try keys.encode(value.modelId, forKey: .modelId)
        try keys.encode(value.messageCount, forKey: .messageCount)
        try keys.encode(value.latestEmailId, forKey: .latestEmailId)
        try keys.encode(value.createdAt.formatted(.iso8601), forKey: .createdAt)
    }
}
