import Foundation

/// Up to three short replies to the latest message of a conversation that the user did not
/// send (AC-A-05), in its language, never inventing facts.
///
/// Offered only for a message that asks or offers something, from a person: none for
/// promotions, updates and no-reply senders, or for a message that asks nothing (issue 35).
///
/// With a writing model: the plain accept and decline (or "another time") phrases of the
/// message's language come first, at once (`ReplyPhrasebook`); then one generation, a reply
/// that names what was asked, begun with the intent's opening, tidied (`GeneratedText`) and
/// checked by `FactGuard`; one left empty, in another language, inventing a fact or naming
/// nothing of the message becomes a question about the conversation's subject. One
/// generation keeps the whole set within AC-A-05's 3 s on two cores. Without one: the user's
/// own earlier replies to similar messages (sentence vectors); else none, with the words that
/// say how to get them.
public struct SmartReplyUseCase: Sendable {
    /// The most suggestions.
    public static let maximumSuggestions = 3
    /// Characters of the message the model reads.
    public static let messageLength = 600
    /// Neighbours looked at for past replies, and how near they must be (cosine).
    public static let pastReplyNeighbours = 20
    public static let pastReplySimilarity: Float = 0.5
    /// How long after the request the written reply may still be coming: what is not written
    /// by then becomes the question about the subject (AC-A-05: the whole set within 3 s).
    public static let generationBudget: Duration = .milliseconds(1500)

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

        /// The intents, in the order they are shown: the plain yes and no first, the written
        /// reply that names what was asked last.
        var intents: [ReplyIntent] { [.accept, cues.proposesTime ? .alternative : .decline, .question] }

        /// What the sender wants an answer to: the sentences that ask or offer (all of it when
        /// none stands out).
        var asked: String {
            let asking = MessageText.sentences(text).filter { sentence in
                let cues = MessageCues(text: sentence, language: language)
                return cues.asks || cues.offers
            }
            return asking.isEmpty ? text : asking.joined(separator: " ")
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
        let deadline = ContinuousClock.now.advanced(by: Self.generationBudget)
        let thread = try await emails.getEmails(threadId: threadId)
        if thread.isEmpty, try await emails.getThread(id: threadId) == nil { throw WritingError.threadNotFound(threadId) }
        let known = try await accounts.getAccounts()
        let ownAddresses = Set(known.map { $0.email.lowercased() })
        let ownNames = known.compactMap(\.displayName)
        func none(_ notice: String, emailId: String? = nil, language: String? = nil) -> ReplySuggestions {
            ReplySuggestions(threadId: threadId, emailId: emailId, language: language, source: .none, suggestions: [], notice: notice)
        }
        guard !thread.isEmpty else { return none("This conversation has no messages to reply to.") }
        // The latest in reading order (the conversation's, so the sender named is the one shown
        // last, also when two messages share a second).
        guard let email = Conversations.ordered(thread)
            .last(where: { !ownAddresses.contains($0.fromAddress.lowercased()) && !$0.isDraft && !$0.sendState.isInOutbox })
        else { return none("Every message in this conversation is yours: there is nothing to reply to yet.") }
        // A sentence that speaks to a machine is never answered nor shown to the model.
        let text = InjectedInstruction.removed(from: MessageText.newText(of: email, limit: Self.messageLength))
        guard text.contains(where: \.isLetter) else {
            return none("\(email.fromName ?? email.fromAddress)'s message has no text to suggest replies to.", emailId: email.id)
        }
        let language = LanguageDetector.detect(text + "\n" + email.subject)
        let target = Target(email: email, text: text, language: language, cues: MessageCues(text: text, language: language),
                            ownAddresses: ownAddresses, ownNames: ownNames)
        if let reason = Self.noReplyReason(target) { return none(reason, emailId: email.id, language: language) }

        if let generator, await generator.isAvailable(),
           let written = try await modelSuggestions(threadId: threadId, target: target, generator: generator, deadline: deadline,
                                                    progress: progress) {
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

    /// Why no reply is suggested to the message: mail from machines or senders nobody answers
    /// (promotions, updates, no-reply addresses), or a message that neither asks nor offers.
    static func noReplyReason(_ target: Target) -> String? {
        let sender = target.email.fromName.flatMap { $0.isEmpty ? nil : $0 } ?? target.email.fromAddress
        switch target.email.category {
        case .promotions: return "No replies are suggested to promotions."
        case .updates: return "No replies are suggested to updates and notices."
        default: break
        }
        if ContactDirectory.isRobot(target.email.fromAddress) { return "\(target.email.fromAddress) does not read replies." }
        guard target.cues.asks || target.cues.offers else { return "\(sender)'s message asks nothing: no reply is suggested." }
        return nil
    }

    /// The plain yes and no at once, then the written reply that names what was asked; nil when
    /// the model turns out not to be installed.
    private func modelSuggestions(threadId: String, target: Target, generator: any TextGenerator, deadline: ContinuousClock.Instant,
                                  isolation: isolated (any Actor)? = #isolation,
                                  progress: (ReplySuggestions) -> Void) async throws -> ReplySuggestions? {
        var result = ReplySuggestions(threadId: threadId, emailId: target.email.id, language: target.language, source: .model, suggestions: [])
        let intents = target.intents
        for intent in intents.dropLast() {
            let plain = ReplyPhrasebook.phrase(intent, context: target.context, language: target.language, formal: target.cues.formal)
            result.suggestions.append(ReplySuggestion(text: plain, intent: intent))
            progress(result)
        }
        guard let intent = intents.last else { return result }
        let request = ReplyPrompt.request(threadId: threadId, intent: intent, context: target.context, message: target.text,
                                          sender: target.sender, subject: target.email.subject, language: target.language,
                                          formal: target.cues.formal)
        let written: (text: String, cut: Bool)
        do {
            written = try await generator.complete(request, until: deadline)
        } catch AIError.modelNotInstalled {
            return nil
        }
        let text = reply(request.answerPrefix + (written.cut ? "" : written.text), intent: intent, target: target, guardrail: target.factGuard,
                         instructions: request.turns.filter { $0.role == .system }.map(\.text) + [ReplyPrompt.instruction(intent, context: target.context)])
        result.suggestions.append(ReplySuggestion(text: text, intent: intent))
        progress(result)
        return result
    }

    /// The usable reply in what the model wrote, or the intent's plain phrase. A sentence goes
    /// when it invents a fact, writes the prompt's instructions back, copies the message out
    /// or names the user (a reply never addresses its own writer); the reply goes when it is
    /// not in the message's language or does not do what its intent says.
    func reply(_ written: String, intent: ReplyIntent, target: Target, guardrail: FactGuard, instructions: [String] = []) -> String {
        let plain = intent == .question
            ? ReplyPhrasebook.question(about: target.email.subject, language: target.language, formal: target.cues.formal)
            : ReplyPhrasebook.phrase(intent, context: target.context, language: target.language, formal: target.cues.formal)
        let cleaned = GeneratedText.cleanReply(written)
        let sentences = guardrail.grounded(MessageText.sentences(cleaned)).filter { sentence in
            !GeneratedText.echoes(sentence, of: instructions, run: 4) && !GeneratedText.echoes(sentence, of: [target.text], run: 7)
                && !target.namesUser(sentence) && !InjectedInstruction.isInstruction(sentence)
        }
        let text = sentences.joined(separator: " ")
        guard text.contains(where: \.isLetter) else { return plain }
        if let language = target.language, !LanguageDetector.fits(text, language: language) { return plain }
        guard ReplyIntentCheck.fits(text, intent: intent, language: ReplyPhrasebook.language(target.language)) else { return plain }
        if intent == .alternative, Self.repeatsProposal(text, of: target.text) { return plain }
        if intent == .question, !Self.names(text, of: target.asked) { return plain }
        return text
    }

    /// True when `reply` names something of `asked`: a word of four letters or more they share,
    /// other than the words any reply or question is made of.
    static func names(_ reply: String, of asked: String) -> Bool {
        let said = Set(FactGuard.words(asked).map { $0.lowercased() }.filter { $0.count >= 4 && !replyWords.contains($0) })
        return FactGuard.words(reply).contains { said.contains($0.lowercased()) }
    }

    /// Words of four letters or more that say nothing of what was asked.
    static let replyWords: Set<String> = [
        "could", "would", "should", "with", "that", "this", "these", "those", "your", "yours", "have", "will", "what", "when",
        "where", "which", "there", "their", "them", "then", "than", "from", "about", "please", "tell", "more", "know", "sure",
        "thanks", "thank", "okay", "just", "also", "some", "send", "share", "make", "like", "need", "want", "able", "time",
        "können", "kannst", "bitte", "mehr", "etwas", "dazu", "sagen", "pouvez", "pourriez", "vous", "plus", "puedes", "podrías",
        "favor", "potresti", "puoi", "dirmi", "vertellen", "pode", "poderia", "mais",
    ]

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
