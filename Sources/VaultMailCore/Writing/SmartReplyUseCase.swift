import Foundation

/// Up to three short replies to the latest message of a conversation that the user did not
/// send (AC-A-05), in its language, never inventing facts.
///
/// With a writing model: one generation per intent (accept, decline or propose another time,
/// ask — or thank, ask, accept an offer when the message asks nothing), each begun with the
/// intent's opening in the message's language (`ReplyPhrasebook`), tidied (`GeneratedText`)
/// and checked by `FactGuard`; a reply left empty, in another language or inventing a fact
/// becomes the intent's plain phrase. Without one: the user's own earlier replies to similar
/// messages (sentence vectors); else none, with the words that say how to get them.
public struct SmartReplyUseCase: Sendable {
    /// The most suggestions.
    public static let maximumSuggestions = 3
    /// Characters of the message the model reads.
    public static let messageLength = 600
    /// Neighbours looked at for past replies, and how near they must be (cosine).
    public static let pastReplyNeighbours = 20
    public static let pastReplySimilarity: Float = 0.5

    private let emails: any EmailRepository
    private let accounts: any AccountRepository
    private let generator: (any TextGenerator)?
    private let embedder: (any TextEmbedder)?
    private let semanticIndex: (any SemanticIndex)?
    private let replyHistory: (any ReplyHistory)?

    public init(emails: any EmailRepository, accounts: any AccountRepository, generator: (any TextGenerator)?,
                embedder: (any TextEmbedder)?, semanticIndex: (any SemanticIndex)?, replyHistory: (any ReplyHistory)?) {
        self.emails = emails
        self.accounts = accounts
        self.generator = generator
        self.embedder = embedder
        self.semanticIndex = semanticIndex
        self.replyHistory = replyHistory
    }

    /// The suggestions as they are made: a value each time one more is ready (the first as
    /// soon as it exists), the last value final. Always at least one value unless it throws
    /// (`WritingError.threadNotFound`, a store error, a model that cannot be read). Ending the
    /// iteration stops the generation.
    public func stream(threadId: String) -> AsyncThrowingStream<ReplySuggestions, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    var last: ReplySuggestions?
                    let final = try await run(threadId: threadId) { partial in
                        last = partial
                        continuation.yield(partial)
                    }
                    if last != final { continuation.yield(final) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The final suggestions.
    public func suggest(threadId: String) async throws -> ReplySuggestions {
        try await run(threadId: threadId) { _ in }
    }

    /// The id of the writing model, named in the words that say how to get suggestions.
    var generationModelId: String { generator?.modelId ?? AIModelCatalog.generationModelId }

    // MARK: The message

    /// What the replies answer.
    struct Target {
        var email: Email
        var text: String
        var language: String?
        var cues: MessageCues
        var ownAddresses: Set<String>
        var ownNames: [String]

        var context: ReplyPhrasebook.Context {
            if cues.aboutMeeting { return .meeting }
            return cues.offers && !cues.asks ? .offer : .request
        }

        /// The intents, in the order they are shown.
        var intents: [ReplyIntent] {
            if cues.asks { return [.accept, cues.proposesTime ? .alternative : .decline, .question] }
            return cues.offers ? [.acknowledge, .question, .accept] : [.acknowledge, .question]
        }

        var sender: String { email.fromName.flatMap { $0.isEmpty ? nil : $0 } ?? email.fromAddress }

        /// True when `sentence` names the user ("Thanks, Sam!" written for Sam).
        func namesUser(_ sentence: String) -> Bool {
            let words = Set(sentence.split(whereSeparator: { !$0.isLetter }).map { $0.lowercased() })
            return ownNames.flatMap { $0.split(separator: " ") }.contains { name in name.count > 1 && words.contains(name.lowercased()) }
        }

        /// What a reply may mention: the message, its subject and people, and the user.
        var factGuard: FactGuard {
            let people = ([email.from] + email.toAddresses + email.ccAddresses).flatMap { [$0.name ?? "", $0.email] }
            return FactGuard(sources: [MessageText.ownText(MessageText.plain(of: email)), email.subject] + people + ownNames + Array(ownAddresses),
                             language: ReplyPhrasebook.language(language))
        }
    }

    private func run(threadId: String, isolation: isolated (any Actor)? = #isolation,
                     progress: (ReplySuggestions) -> Void) async throws -> ReplySuggestions {
        let thread = try await emails.getEmails(threadId: threadId)
        if thread.isEmpty, try await emails.getThread(id: threadId) == nil { throw WritingError.threadNotFound(threadId) }
        let known = try await accounts.getAccounts()
        let ownAddresses = Set(known.map { $0.email.lowercased() })
        let ownNames = known.compactMap(\.displayName)
        func none(_ notice: String, emailId: String? = nil, language: String? = nil) -> ReplySuggestions {
            ReplySuggestions(threadId: threadId, emailId: emailId, language: language, source: .none, suggestions: [], notice: notice)
        }
        guard !thread.isEmpty else { return none("This conversation has no messages to reply to.") }
        guard let email = thread.last(where: { !ownAddresses.contains($0.fromAddress.lowercased()) && !$0.isDraft && !$0.sendState.isInOutbox })
        else { return none("Every message in this conversation is yours: there is nothing to reply to yet.") }
        let text = MessageText.newText(of: email, limit: Self.messageLength)
        guard text.contains(where: \.isLetter) else {
            return none("\(email.fromName ?? email.fromAddress)'s message has no text to suggest replies to.", emailId: email.id)
        }
        let language = LanguageDetector.detect(text + "\n" + email.subject)
        let target = Target(email: email, text: text, language: language, cues: MessageCues(text: text, language: language),
                            ownAddresses: ownAddresses, ownNames: ownNames)

        if let generator, await generator.isAvailable(),
           let written = try await modelSuggestions(threadId: threadId, target: target, generator: generator, progress: progress) {
            return written
        }
        if let past = try await pastReplies(threadId: threadId, target: target), !past.suggestions.isEmpty {
            progress(past)
            return past
        }
        return none(AIError.modelNotInstalled(modelId: generationModelId, feature: "smart replies").description,
                    emailId: email.id, language: language)
    }

    // MARK: With a model

    /// Nil when the model turns out not to be installed before any reply was written.
    private func modelSuggestions(threadId: String, target: Target, generator: any TextGenerator,
                                  isolation: isolated (any Actor)? = #isolation,
                                  progress: (ReplySuggestions) -> Void) async throws -> ReplySuggestions? {
        let guardrail = target.factGuard
        var result = ReplySuggestions(threadId: threadId, emailId: target.email.id, language: target.language, source: .model, suggestions: [])
        for intent in target.intents where result.suggestions.count < Self.maximumSuggestions {
            let request = ReplyPrompt.request(threadId: threadId, intent: intent, context: target.context, message: target.text,
                                              sender: target.sender, subject: target.email.subject, language: target.language,
                                              formal: target.cues.formal)
            let written: String
            do {
                written = try await generator.complete(request)
            } catch AIError.modelNotInstalled {
                if result.suggestions.isEmpty { return nil }
                break
            }
            let text = reply(request.answerPrefix + written, intent: intent, target: target, guardrail: guardrail,
                             instructions: request.turns.filter { $0.role == .system }.map(\.text) + [ReplyPrompt.instruction(intent, context: target.context)])
            let plain = ReplyPhrasebook.phrase(intent, context: target.context, language: target.language, formal: target.cues.formal)
            let seen = Set(result.suggestions.map { ExtractiveSummarizer.key($0.text) })
            guard let chosen = [text, plain].first(where: { !seen.contains(ExtractiveSummarizer.key($0)) }) else { continue }
            result.suggestions.append(ReplySuggestion(text: chosen, intent: intent))
            progress(result)
        }
        return result
    }

    /// The usable reply in what the model wrote, or the intent's plain phrase. A sentence goes
    /// when it invents a fact, writes the prompt's instructions back, copies the message out
    /// or names the user (a reply never addresses its own writer); the reply goes when it is
    /// not in the message's language or does not do what its intent says.
    func reply(_ written: String, intent: ReplyIntent, target: Target, guardrail: FactGuard, instructions: [String] = []) -> String {
        let plain = ReplyPhrasebook.phrase(intent, context: target.context, language: target.language, formal: target.cues.formal)
        let cleaned = GeneratedText.cleanReply(written)
        let sentences = guardrail.grounded(MessageText.sentences(cleaned)).filter { sentence in
            !GeneratedText.echoes(sentence, of: instructions, run: 4) && !GeneratedText.echoes(sentence, of: [target.text], run: 7)
                && !target.namesUser(sentence)
        }
        let text = sentences.joined(separator: " ")
        guard text.contains(where: \.isLetter) else { return plain }
        if let language = target.language, !LanguageDetector.fits(text, language: language) { return plain }
        guard ReplyIntentCheck.fits(text, intent: intent, language: ReplyPhrasebook.language(target.language)) else { return plain }
        if intent == .alternative, Self.repeatsProposal(text, of: target.text) { return plain }
        return text
    }

    /// True when a reply meant to propose something else names the message's own time or day
    /// again ("Could we meet at 3pm tomorrow?" to "Can you meet at 3pm tomorrow?").
    static func repeatsProposal(_ reply: String, of message: String) -> Bool {
        let said = Set(FactGuard.words(message).map { $0.lowercased() })
        return FactGuard.words(reply).contains { word in
            let lower = word.lowercased()
            return said.contains(lower) && (word.contains(where: \.isNumber) || FactGuard.dateWords.contains(lower))
        }
    }

    // MARK: Without a model

    /// The user's own replies to the messages nearest this one; nil when there is no way to
    /// look (no sentence model, no vectors, no history).
    private func pastReplies(threadId: String, target: Target) async throws -> ReplySuggestions? {
        guard let embedder, let semanticIndex, let replyHistory, await embedder.isAvailable() else { return nil }
        let query = CategorizationInput.modelText(subject: target.email.subject,
                                                  opening: CategorizationInput.openingText(body: target.text, snippet: target.email.snippet))
        let vector: [Float]
        do {
            vector = try await embedder.embed(query)
        } catch AIError.modelNotInstalled {
            return nil
        }
        let neighbours = try await semanticIndex.nearest(to: vector, modelId: embedder.modelId, filter: nil, limit: Self.pastReplyNeighbours)
            .filter { $0.similarity >= Self.pastReplySimilarity && $0.emailId != target.email.id }
        guard !neighbours.isEmpty else { return nil }
        let replies = try await replyHistory.replies(toEmailIds: neighbours.map(\.emailId))
        let guardrail = target.factGuard
        var suggestions: [ReplySuggestion] = []
        var seen = Set<String>()
        for neighbour in neighbours where suggestions.count < Self.maximumSuggestions {
            guard let reply = replies[neighbour.emailId] else { continue }
            let sentences = MessageText.sentences(MessageText.newText(of: reply)).filter { !GeneratedText.isClutter($0) }
            let text = guardrail.grounded(Array(sentences.prefix(2))).joined(separator: " ")
            guard text.contains(where: \.isLetter), seen.insert(ExtractiveSummarizer.key(text)).inserted else { continue }
            if let language = target.language, let written = LanguageDetector.detect(text), written != language { continue }
            suggestions.append(ReplySuggestion(text: MessageText.shortened(text, to: 240), intent: ReplyPhrasebook.intent(of: text)))
        }
        let notice = "Written by you before — download a writing model for new suggestions: run `vaultmail ai download \(generationModelId)` or open Settings → On-device AI."
        return ReplySuggestions(threadId: threadId, emailId: target.email.id, language: target.language, source: .pastReplies,
                                suggestions: suggestions, notice: notice)
    }
}
