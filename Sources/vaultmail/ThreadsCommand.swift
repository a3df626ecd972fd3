import ArgumentParser
import VaultMailApp
import VaultMailCore

struct ThreadsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "threads", abstract: "List conversations, newest first.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Only this account.") var account: String?
    @Flag(help: "Every account's folders of the type (the unified view).") var all = false
    @Option(help: "inbox, sent, drafts, trash, spam, archive, starred, outbox, or a folder name.") var folder = "inbox"
    @Option(help: "primary, social, promotions, updates or forums.") var category: AICategory?
    @Option(help: "Conversations per page.") var limit = AppConstants.threadListPageSize
    @Option(help: "Where the page starts: the nextCursor of the previous page.") var cursor: String?
    @Flag(help: "Stable JSON (see docs/cli.md).") var json = false

    func validate() throws {
        if all && account != nil { throw ValidationError("--all and --account exclude each other") }
    }

    @MainActor
    func run() async throws {
        var query = CommandSession.ThreadQuery()
        query.account = account
        query.all = all
        query.folder = folder
        query.category = category
        query.limit = limit
        query.cursor = cursor
        query.json = json
        emit(try await global.session().threads(query))
    }
}

extension AICategory: ExpressibleByArgument {}

struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a conversation with all its messages, marking it read as opening it in the web app does (not with --json).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The thread id (or a unique prefix).") var threadId: String
    @Flag(help: "Stable JSON (see docs/cli.md).") var json = false

    @MainActor
    func run() async throws {
        emit(try await global.session().show(threadId, json: json))
    }
}

/// The shape of read, unread, star, unstar, archive and delete.
protocol ThreadActionCommand: AsyncParsableCommand {
    static var action: CommandSession.ThreadAction { get }
    var global: GlobalOptions { get }
    var threadIds: [String] { get }
}

extension ThreadActionCommand {
    static func describe(_ abstract: String) -> CommandConfiguration {
        CommandConfiguration(commandName: action.rawValue, abstract: abstract)
    }

    @MainActor
    func run() async throws {
        let session = try global.session()
        emit(try await session.apply(Self.action, to: threadIds, using: session.services.emails))
    }
}

struct ReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read", abstract: "Mark conversations read, or with --folder every unread one of a list (Mark all as read).",
        discussion: "With --folder (and --account, --all, --category as `vaultmail threads` takes them) instead of thread ids, every unread conversation of that list is marked read.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Thread ids (or unique prefixes).") var threadIds: [String] = []
    @Option(help: "Mark all as read: inbox, sent, drafts, trash, spam, archive, starred, or a folder name.") var folder: String?
    @Option(help: "With --folder: only this account.") var account: String?
    @Flag(help: "With --folder: every account's folders of the type (the unified view).") var all = false
    @Option(help: "With --folder: primary, social, promotions, updates or forums.") var category: AICategory?

    func validate() throws {
        if folder != nil && !threadIds.isEmpty { throw ValidationError("name thread ids or a --folder to mark all read, not both") }
        if folder == nil && (account != nil || all || category != nil) { throw ValidationError("--account, --all and --category go with --folder") }
        if all && account != nil { throw ValidationError("--all and --account exclude each other") }
    }

    @MainActor
    func run() async throws {
        let session = try global.session()
        guard let folder else {
            emit(try await session.apply(.read, to: threadIds, using: session.services.emails))
            return
        }
        var query = CommandSession.ThreadQuery()
        query.account = account
        query.all = all
        query.folder = folder
        query.category = category
        emit(try await session.markAllRead(query, using: session.services.emails))
    }
}

struct UnreadCommand: ThreadActionCommand {
    static let action = CommandSession.ThreadAction.unread
    static let configuration = describe("Mark conversations unread.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Thread ids (or unique prefixes).") var threadIds: [String] = []
}

struct StarCommand: ThreadActionCommand {
    static let action = CommandSession.ThreadAction.star
    static let configuration = describe("Star conversations.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Thread ids (or unique prefixes).") var threadIds: [String] = []
}

struct UnstarCommand: ThreadActionCommand {
    static let action = CommandSession.ThreadAction.unstar
    static let configuration = describe("Remove the star from conversations.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Thread ids (or unique prefixes).") var threadIds: [String] = []
}

struct ArchiveCommand: ThreadActionCommand {
    static let action = CommandSession.ThreadAction.archive
    static let configuration = describe("Archive conversations (out of the inbox).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Thread ids (or unique prefixes).") var threadIds: [String] = []
}

struct DeleteCommand: ThreadActionCommand {
    static let action = CommandSession.ThreadAction.delete
    static let configuration = describe("Move conversations to Trash (deleting them for good when already there).")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Thread ids (or unique prefixes).") var threadIds: [String] = []
}

struct MoveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move conversations to a folder.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Thread ids (or unique prefixes).") var threadIds: [String] = []
    @Option(help: "The folder: a type (archive, trash, …) or a name.") var to: String

    @MainActor
    func run() async throws {
        let session = try global.session()
        emit(try await session.move(threadIds, to: to, using: session.services.emails))
    }
}

struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "outbox", abstract: "List messages waiting to be sent, being sent, or failed; retry or cancel one.")
    @OptionGroup var global: GlobalOptions
    @Option(help: "Only this account.") var account: String?
    @Option(help: ArgumentHelp("Send this failed or queued message now.", valueName: "email-id")) var retry: String?
    @Option(help: ArgumentHelp("Take this message back to a draft.", valueName: "email-id")) var cancel: String?
    @Flag(help: "JSON.") var json = false

    func validate() throws {
        if retry != nil && cancel != nil { throw ValidationError("--retry and --cancel exclude each other") }
    }

    @MainActor
    func run() async throws {
        let session = try global.session()
        if let retry { return emit(try await session.retryOutgoing(retry)) }
        if let cancel { return emit(try await session.cancelOutgoing(cancel)) }
        emit(try await session.outbox(account: account, json: json))
    }
}
