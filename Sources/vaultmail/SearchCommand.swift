import ArgumentParser
import Foundation
import VaultMailApp
import VaultMailCore

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search the mail on this computer.",
        discussion: """
            Words must all match; "an exact phrase"; -word excludes; OR between terms; parentheses group.
            Operators: from: to: cc: subject: filename: has:attachment is:unread|read|starred
            in:inbox|sent|…|FOLDER account:NAME category:C after:/before:2024-01-31 older_than:/newer_than:7d|2w|2m|1y.
            A query that cannot be read exits with 2 and points at the part it could not read.
            --semantic finds mail by meaning ("financial planning meeting" finds "quarterly budget review") with the
            on-device model (`vaultmail ai status`); operators still narrow the results exactly.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "The query (quote it for the shell).") var query: [String] = []
    @Option(help: "Only this account.") var account: String?
    @Option(help: "Results per page (1 to 500), or all: every result, written as it is read.") var limit = SearchLimit.page(AppConstants.threadListPageSize)
    @Option(help: "Where the page starts: the nextCursor of the previous page.") var cursor: String?
    @Flag(help: "One row per message instead of per conversation.") var messages = false
    @Option(help: "newest or relevance.") var sort = SearchSort.newest
    @Flag(help: "Print how many conversations (with --messages, messages) match.") var count = false
    @Flag(help: "Stable JSON (see docs/cli.md).") var json = false
    @Flag(help: "By meaning, with the on-device model: conversations best first.") var semantic = false

    func validate() throws {
        if query.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ValidationError("give a query, e.g. vaultmail search 'from:alice invoice'")
        }
    }

    @MainActor
    func run() async throws {
        var request = CommandSession.SearchRequest(query: query.joined(separator: " "))
        request.account = account
        if case .page(let size) = limit { request.limit = size } else { request.all = true }
        request.cursor = cursor
        request.messages = messages
        request.sort = sort
        request.count = count
        request.json = json
        request.semantic = semantic
        request.bold = isatty(STDOUT_FILENO) == 1
        let session = try global.session()
        guard request.all else { return emit(try await session.search(request)) }
        try await session.searchAll(request) { FileHandle.standardOutput.write(Data($0.utf8)) }
    }
}

/// `--limit N` or `--limit all`.
enum SearchLimit: ExpressibleByArgument {
    case page(Int)
    case all

    init?(argument: String) {
        if argument.lowercased() == "all" {
            self = .all
        } else if let size = Int(argument) {
            self = .page(size)
        } else {
            return nil
        }
    }

    var defaultValueDescription: String {
        if case .page(let size) = self { "\(size)" } else { "all" }
    }
}

extension SearchSort: ExpressibleByArgument {}
