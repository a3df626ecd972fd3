import Foundation

/// A summary without a writing model (AC-A-06): the conversation's most central sentences,
/// each with its sender's first name ("Anna: …"), in conversation order.
///
/// Candidates are the messages' own sentences (no quotes, greetings, sign-offs, very short
/// lines or sentences that speak to a machine, `InjectedInstruction`). With sentence vectors they are ranked by similarity to their centroid; without,
/// by position (a message's first sentences, the latest message). Both add a small bonus for
/// a date or time, a name, and words of decision or action ("agreed", "will", "deadline"). The
/// choice spreads over the people who wrote (who asked, who answered).
public struct ExtractiveSummarizer: Sendable {
    /// One message: who wrote it and its own text.
    public struct Message: Sendable, Hashable {
        public var sender: String
        public var text: String

        public init(sender: String, text: String) {
            self.sender = sender
            self.text = text
        }
    }

    /// A sentence that may be chosen.
    struct Candidate: Sendable, Hashable {
        var sender: String
        var text: String
        var message: Int
        var position: Int
    }

    /// The result: the chosen lines, and the model whose vectors ranked them (nil without).
    public struct Result: Sendable, Hashable {
        public var lines: [String]
        public var modelId: String?
    }

    /// The most sentences embedded for one summary (the newest messages' first).
    public static let maximumCandidates = 80
    /// Without vectors, the score a third or fourth sentence needs.
    static let minimumPositionScore = 0.1
    /// What a sentence loses for each line its sender already has.
    static let repeatedSenderPenalty = 0.3
    /// With vectors, what a message's first sentence gains (its second half as much, …).
    static let openingSentenceBonus = 0.1
    /// What a sentence of the conversation's first message gains.
    static let openingBonus = 0.1
    /// The longest line, in characters.
    public static let maximumLineLength = 220

    let embedder: (any TextEmbedder)?

    public init(embedder: (any TextEmbedder)?) {
        self.embedder = embedder
    }

    /// The best 2–4 sentences (fewer when the messages hold fewer): 2 for one message, 3 for
    /// two, 4 for three or more.
    public func summarize(_ messages: [Message]) async throws -> Result {
        let candidates = Self.candidates(messages)
        guard !candidates.isEmpty else { return Result(lines: [], modelId: nil) }
        let wanted = min(candidates.count, max(2, min(4, messages.count + 1)))
        let names = Set(messages.map { $0.sender.lowercased() })
        var scores = candidates.map { Self.bonus($0.text, names: names) }
        var vectors: [[Float]]? = nil
        var modelId: String? = nil
        if let embedder, candidates.count > wanted, await embedder.isAvailable() {
            do {
                let embedded = try await embedder.embed(candidates.map(\.text))
                if embedded.count == candidates.count {
                    vectors = embedded
                    modelId = embedder.modelId
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // Ranked without vectors: a summary is never missing for want of a model.
            }
        }
        if let vectors {
            let centroid = Self.normalized(Self.mean(vectors))
            for index in candidates.indices {
                // A message's first sentences say what it is about: a small prior on top of centrality.
                scores[index] += Double(cosineSimilarity(vectors[index], centroid)) + Self.openingSentenceBonus / Double(1 + candidates[index].position)
            }
        } else {
            let lastMessage = candidates.map(\.message).max() ?? 0
            for (index, candidate) in candidates.enumerated() {
                scores[index] += 0.1 / Double(1 + candidate.position) + (candidate.message == lastMessage ? 0.05 : 0)
            }
        }
        // Greedy, so that the summary says who: a sentence loses `repeatedSenderPenalty` for
        // each line its sender already has, and the conversation's opening message (who asked)
        // gains `openingBonus`.
        var chosen: [Int] = []
        var remaining = Array(candidates.indices)
        while chosen.count < wanted, !remaining.isEmpty {
            func adjusted(_ index: Int) -> Double {
                let sender = candidates[index].sender
                return scores[index] - Self.repeatedSenderPenalty * Double(chosen.filter { candidates[$0].sender == sender }.count)
                    + (candidates[index].message == 0 && messages.count > 1 ? Self.openingBonus : 0)
            }
            let best = remaining.max { adjusted($0) != adjusted($1) ? adjusted($0) < adjusted($1) : $0 > $1 }!
            remaining.removeAll { $0 == best }
            // Without vectors, past the first two only a sentence with something to it: a
            // message's opening, a date, a name, an action.
            if vectors == nil, chosen.count >= 2, scores[best] < Self.minimumPositionScore { break }
            let key = Self.key(candidates[best].text)
            let duplicate = chosen.contains { other in
                Self.key(candidates[other].text) == key
                    || vectors.map { cosineSimilarity($0[best], $0[other]) > 0.92 } ?? false
            }
            if !duplicate { chosen.append(best) }
        }
        let lines = chosen.sorted().map { index in
            "\(candidates[index].sender): \(MessageText.shortened(candidates[index].text, to: Self.maximumLineLength))"
        }
        return Result(lines: lines, modelId: modelId)
    }

    // MARK: Candidates

    static func candidates(_ messages: [Message]) -> [Candidate] {
        var candidates: [Candidate] = []
        for (messageIndex, message) in messages.enumerated().reversed() {
            var position = 0
            var own: [Candidate] = []
            // Chat-template tokens and prompt frames in mail are never shown back to the user.
            for sentence in MessageText.sentences(ReplyPrompt.dataOnly(message.text)) where isCandidate(sentence) {
                own.append(Candidate(sender: message.sender, text: sentence, message: messageIndex, position: position))
                position += 1
            }
            candidates.insert(contentsOf: own, at: 0)
            if candidates.count >= maximumCandidates { break }
        }
        return Array(candidates.suffix(maximumCandidates))
    }

    static func isCandidate(_ sentence: String) -> Bool {
        let words = sentence.split(separator: " ")
        guard sentence.count >= 20, words.count >= 4 else { return false }
        if MessageText.isGreeting(sentence) || GeneratedText.isClutter(sentence) || InjectedInstruction.isInstruction(sentence) { return false }
        // Lines of a signature or a footer: mostly digits, addresses, links.
        let letters = sentence.filter(\.isLetter).count
        if Double(letters) < Double(sentence.count) * 0.5 { return false }
        let lower = sentence.lowercased()
        let footers = ["unsubscribe", "view in browser", "all rights reserved", "privacy policy", "this email was sent", "confidential",
                       "you are receiving this", "you received this", "you subscribed", "manage your subscription", "update your preferences",
                       "<|", "|>"]
        return !footers.contains { lower.contains($0) }
    }

    // MARK: Scores

    static let actionWords: [String] = [
        "decided", "decision", "agreed", "agree", "will", "please", "deadline", "due", "confirm", "confirmed", "approved",
        "action", "owner", "next step", "next steps", "must", "need", "needs", "need to", "needs to", "let's", "we'll", "i'll", "assign", "by friday",
        "entschieden", "vereinbart", "einverstanden", "wird", "werde", "bitte", "frist", "bestätigt", "genehmigt", "müssen", "erledigen",
        "décidé", "convenu", "d'accord", "merci de", "date limite", "échéance", "confirmé", "approuvé", "doit", "je vais", "nous allons",
        "decidido", "acordado", "de acuerdo", "voy a", "vamos a", "por favor", "plazo", "fecha límite", "confirmado", "aprobado",
        "deciso", "concordato", "d'accordo", "farò", "per favore", "scadenza", "entro", "confermato", "approvato",
        "besloten", "afgesproken", "akkoord", "zal", "alsjeblieft", "uiterlijk", "bevestigd", "goedgekeurd",
        "combinado", "vou", "prazo", "aprovado",
    ]

    /// The bonus of a sentence: a date or time +0.08, a name +0.05, a word of decision or
    /// action +0.12.
    static func bonus(_ sentence: String, names: Set<String>) -> Double {
        let lower = " " + sentence.lowercased() + " "
        var bonus = 0.0
        let words = FactGuard.words(sentence)
        if MessageCues.mentionsTime(lower) || words.contains(where: { FactGuard.dateWords.contains($0.lowercased()) })
            || words.contains(where: { $0.contains(where: \.isNumber) }) {
            bonus += 0.08
        }
        let starts = FactGuard.sentenceStartIndices(sentence)
        if words.enumerated().contains(where: { index, word in
            names.contains(word.lowercased()) || (!starts.contains(index) && word.first?.isUppercase == true && word.count > 1)
        }) {
            bonus += 0.05
        }
        if actionWords.contains(where: { CategoryText.contains(lower, $0) }) { bonus += 0.12 }
        return bonus
    }

    static func key(_ text: String) -> String {
        text.lowercased().filter { $0.isLetter || $0.isNumber }
    }

    static func mean(_ vectors: [[Float]]) -> [Float] {
        guard let first = vectors.first else { return [] }
        var sum = [Float](repeating: 0, count: first.count)
        for vector in vectors where vector.count == sum.count {
            for index in sum.indices { sum[index] += vector[index] }
        }
        return sum.map { $0 / Float(vectors.count) }
    }

    static func normalized(_ vector: [Float]) -> [Float] {
        let length = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return length > 0 ? vector.map { $0 / length } : vector
    }
}
