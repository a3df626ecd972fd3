import Foundation
import VaultMailCore
import VaultMailTesting

/// A mailbox for the writing use cases: the user is Ada (ada@example.com) of account "work".
enum WritingFixture {
    static let account: Account = {
        var account = MailFixtures.account(name: "work", email: "ada@example.com")
        account.displayName = "Ada Lovelace"
        return account
    }()

    static func email(_ number: Int, thread: String = "t1", from: String = "anna@example.org", name: String? = "Anna Berg",
                      subject: String = "Budget", body: String?, html: String? = nil, minutes: Double? = nil) -> Email {
        var email = MailFixtures.email(accountId: account.id, number: number, threadId: thread, from: from, fromName: name, subject: subject,
                                       date: MailFixtures.referenceDate.addingTimeInterval((minutes ?? Double(number)) * 60))
        email.bodyPlain = body
        email.bodyHTML = html
        email.toAddresses = [Participant(name: "Ada Lovelace", email: "ada@example.com")]
        return email
    }

    static func repository(_ emails: [Email]) async throws -> MockEmailRepository {
        let repository = MockEmailRepository()
        let folders = MailFixtures.standardFolders(accountId: account.id)
        try await repository.saveFolders(folders)
        for email in emails {
            try await repository.saveEmails([MailFixtures.incoming(email, in: [folders.of(.inbox)])])
        }
        return repository
    }

    static func replies(_ emails: [Email], generator: (any TextGenerator)?, embedder: (any TextEmbedder)? = nil,
                        index: (any SemanticIndex)? = nil, history: (any ReplyHistory)? = nil) async throws -> SmartReplyUseCase {
        SmartReplyUseCase(emails: try await repository(emails), accounts: InMemoryAccountRepository([account]), generator: generator,
                          embedder: embedder, semanticIndex: index, replyHistory: history)
    }
}
