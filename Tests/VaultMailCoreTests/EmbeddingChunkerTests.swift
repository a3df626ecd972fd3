import Foundation
import Testing
@testable import VaultMailCore

/// What search by meaning embeds of an email (issue 35): the sender's own lines, in chunks.
@Suite("Search by meaning: the text embedded, in chunks (issue 35)")
struct EmbeddingChunkerTests {
    @Test("a short message is one chunk: its subject, then the sender's lines")
    func shortMessage() {
        let chunks = EmbeddingChunker.standard.chunks(subject: "Lunch on Friday", body: "Shall we try the new place?\nIt opens at noon.")
        #expect(chunks == ["Lunch on Friday. Shall we try the new place? It opens at noon."])
    }

    @Test("quoted lines, their attribution, the signature and a list footer are left out; a reply between quotes is kept")
    func writtenText() {
        let body = """
            In article <1@news.example> bob@example.com (Bob) writes:
            > Is the old driver any good?
            It crashes on boot for me.
            > And the new one?
            Works fine since Tuesday.
            --
            Anna, somewhere
            """
        #expect(MessageText.writtenText(body) == "It crashes on boot for me.\nWorks fine since Tuesday.")
        let footer = """
            The radio drops samples at high rates.
            _______________________________________________
            Radio-users mailing list -- radio@lists.example.org
            """
        #expect(EmbeddingChunker.standard.chunks(subject: "Drops", body: footer) == ["Drops. The radio drops samples at high rates."])
    }

    @Test("a long message is shared evenly among as few chunks as hold it, each led by the subject, and cut after the last")
    func longMessage() {
        let chunker = EmbeddingChunker(wordsPerChunk: 4, maximumChunks: 2)
        #expect(chunker.chunks(subject: "S", body: "one two three four five six") == ["S. one two three", "S. four five six"])
        #expect(chunker.chunks(subject: "S", body: "a b c d e f g h i j") == ["S. a b c d", "S. e f g h"], "words past 2 × 4 are not read")
        #expect(chunker.chunks(subject: "S", body: "a b c") == ["S. a b c"])
    }

    @Test("a message with no words of its own is its subject alone")
    func subjectOnly() {
        #expect(EmbeddingChunker.standard.chunks(subject: " Re: Photos ", body: "> all quoted\n-- \nsig") == ["Re: Photos"])
    }

    @Test("the indexer keeps each email's chunk vectors together and in order")
    func grouped() {
        let inputs = [EmbeddingInput(emailId: "a", chunk: 0, text: "a0"), EmbeddingInput(emailId: "a", chunk: 1, text: "a1"),
                      EmbeddingInput(emailId: "b", chunk: 0, text: "b0")]
        let emails = EmbedEmailsUseCase.grouped(inputs, [[1], [2], [3]])
        #expect(emails.map(\.emailId) == ["a", "b"])
        #expect(emails.map(\.vectors) == [[[1], [2]], [[3]]])
    }
}
