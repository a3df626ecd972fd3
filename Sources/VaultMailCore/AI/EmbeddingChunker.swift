import Foundation

/// The texts an email's sentence vectors are made from, for search by meaning (AC-A-07): what
/// the sender wrote (`MessageText.writtenText`: no quoted lines, signature or list footer), cut
/// into chunks of about `wordsPerChunk` words, each led by the subject. A long message gets
/// several vectors, so its later paragraphs can be found too, and a conversation ranks by its
/// best chunk; a short one gets one.
public struct EmbeddingChunker: Sendable, Hashable {
    /// Words per chunk at most: 150 English words are about 200 of all-MiniLM-L6-v2's word
    /// pieces, so a chunk and its subject fit in the model's 256.
    public var wordsPerChunk: Int
    /// Chunks per email at most; words past `wordsPerChunk × maximumChunks` are not embedded.
    public var maximumChunks: Int

    /// What the store's vectors are made with.
    public static let standard = EmbeddingChunker(wordsPerChunk: 150, maximumChunks: 4)

    public init(wordsPerChunk: Int, maximumChunks: Int) {
        self.wordsPerChunk = max(1, wordsPerChunk)
        self.maximumChunks = max(1, maximumChunks)
    }

    /// The chunks of an email, at least one (the subject alone when the body has no words of
    /// the sender's). The words are shared evenly among as few chunks as hold them, so no
    /// chunk is a short tail.
    public func chunks(subject: String, body: String) -> [String] {
        let lead = subject.trimmingCharacters(in: .whitespacesAndNewlines)
        let words = MessageText.writtenText(body).split(whereSeparator: \.isWhitespace)
            .prefix(wordsPerChunk * maximumChunks)
        guard !words.isEmpty else { return [lead] }
        let count = (words.count + wordsPerChunk - 1) / wordsPerChunk
        let size = (words.count + count - 1) / count
        return stride(from: 0, to: words.count, by: size).map { start in
            let text = words[(words.startIndex + start)..<min(words.endIndex, words.startIndex + start + size)].joined(separator: " ")
            return lead.isEmpty ? text : "\(lead). \(text)"
        }
    }
}
