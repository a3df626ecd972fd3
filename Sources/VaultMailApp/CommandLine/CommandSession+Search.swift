import Foundation
import VaultMailCore

extension CommandSession {
    public struct SearchRequest: Sendable {
        public var query: String
        public var account: String?
        public var limit = AppConstants.threadListPageSize
        /// Every result (`--limit all`): see `searchAll(_:write:)`.
        public var all = false
        public var cursor: String?
        public var messages = false
        public var sort = SearchSort.newest
        public var json = false
        /// Print how many match instead of the results.
        public var count = false
        /// Mark matched words with terminal bold (a terminal), else with [brackets].
        public var bold = false
        /// By meaning (issue 15): the words' sense fused with the word search.
        public var semantic = false

        public init(query: String) {
            self.query = query
        }
    }

    /// `vaultmail search`: matching conversations (or messages), a page at a time, or a count.
    public func search(_ request: SearchRequest) async throws -> String {
        guard (1...500).contains(request.limit) else { throw CommandError("--limit must be between 1 and 500, or all", usage: true) }
        if let name = request.account { _ = try await account(named: name) }
        let search = dependencies.searchMail
        do {
            if request.count {
                let count = try await search.count(request.query, account: request.account, messages: request.messages)
                let unit = request.messages ? "messages" : "conversations"
                if request.json { return try ThreadJSON.encode(SearchJSON.Count(query: request.query, count: count, unit: unit)) }
                return "\(count)"
            }
            let options = SearchOptions(sort: request.sort, limit: request.limit, cursor: try cursor(request))
            if request.semantic {
                return try await searchByMeaning(request, options: options)
            }
            if request.messages {
                let page = try await search.messages(request.query, account: request.account, options: options)
                if request.json {
                    return try ThreadJSON.encode(SearchJSON.Page(query: request.query, results: page.hits.map(SearchJSON.message),
                                                                 nextCursor: page.nextCursor?.encoded, hasMore: page.hasMore))
                }
                return render(page.hits.map { messageLines($0, request) }, next: page.nextCursor, request)
            }
            let page = try await search.threads(request.query, account: request.account, options: options)
            let muted = await mutedThreadIds()
            if request.json {
                return try ThreadJSON.encode(SearchJSON.Page(query: request.query, results: page.hits.map { SearchJSON.thread($0, muted: muted) },
                                                             nextCursor: page.nextCursor?.encoded, hasMore: page.hasMore))
            }
            let me = Set(try await accountService.all().map(\.email))
            return render(page.hits.map { threadLines($0, me: me, muted: muted, request) }, next: page.nextCursor, request)
        } catch SearchError.invalidQuery(let problem) {
            throw CommandError("\(problem.description)\n  \(problem.pointer.replacingOccurrences(of: "\n", with: "\n  "))", usage: true)
        } catch let error as SearchError {
            throw CommandError(error.description)
        }
    }

    /// `vaultmail search --limit all`: every matching conversation (or message), newest first
    /// or best first, handed to `write` a page of 500 at a time as it is read, so a script gets
    /// them all without paging and the tool holds one page. With `--json` the text written is
    /// one search object (`{"hasMore": false, "query", "results": [...]}`) whatever the count.
    public func searchAll(_ request: SearchRequest, write: (String) -> Void) async throws {
        if request.semantic { throw CommandError("--limit all lists every word match; by meaning, ask for pages (--limit 1 to 500)", usage: true) }
        if request.count || request.cursor != nil {
            throw CommandError("--limit all lists every result from the first; leave out \(request.count ? "--count" : "--cursor")", usage: true)
        }
        if let name = request.account { _ = try await account(named: name) }
        let search = dependencies.searchMail
        let me = request.json || request.messages ? [] : Set(try await accountService.all().map(\.email))
        var options = SearchOptions(sort: request.sort, limit: 500)
        let muted = await mutedThreadIds()
        var written = 0
        if request.json { write("{\n  \"hasMore\" : false,\n  \"query\" : \(try ThreadJSON.encode(request.query)),\n  \"results\" : [") }
        do {
            repeat {
                let next: SearchCursor?
                let results: [String]
                if request.messages {
                    let page = try await search.messages(request.query, account: request.account, options: options)
                    results = try request.json ? page.hits.map { try ThreadJSON.encode(SearchJSON.message($0)) } : page.hits.map { messageLines($0, request).joined(separator: "\n") }
                    next = page.nextCursor
                } else {
                    let page = try await search.threads(request.query, account: request.account, options: options)
                    results = try request.json ? page.hits.map { try ThreadJSON.encode(SearchJSON.thread($0, muted: muted)) } : page.hits.map { threadLines($0, me: me, muted: muted, request).joined(separator: "\n") }
                    next = page.nextCursor
                }
                for result in results {
                    if request.json {
                        write((written == 0 ? "\n" : ",\n") + result.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n"))
                    } else {
                        write(result + "\n")
                    }
                    written += 1
                }
                options.cursor = next
            } while options.cursor != nil
        } catch SearchError.invalidQuery(let problem) {
            throw CommandError("\(problem.description)\n  \(problem.pointer.replacingOccurrences(of: "\n", with: "\n  "))", usage: true)
        } catch let error as SearchError {
            throw CommandError(error.description)
        }
        if request.json {
            write(written == 0 ? "\n\n  ]\n}\n" : "\n  ]\n}\n")
        } else if written == 0 {
            write("No \(request.messages ? "message" : "conversation") matches \(request.query).\n")
        }
    }

    /// `vaultmail search --semantic`: mail no model has read yet is read first (progress on
    /// standard error), then conversations come best first.
    private func searchByMeaning(_ request: SearchRequest, options: SearchOptions) async throws -> String {
        if request.messages || request.count {
            throw CommandError("--semantic lists conversations by meaning; leave out \(request.messages ? "--messages" : "--count")", usage: true)
        }
        let embedder = textEmbedder
        guard await embedder.isAvailable() else {
            throw CommandError(AIError.modelNotInstalled(modelId: embedder.modelId, feature: "search by meaning").description)
        }
        let (embedding, semantic) = dependencies.semanticSearch(embedder: embedder)
        try await embedding.run { done, total in
            if done == total || done % 512 < EmbedEmailsUseCase.batchSize {
                FileHandle.standardError.write(Data("Reading mail for search by meaning (once): \(done) of \(total)\n".utf8))
            }
        }
        let page = try await semantic.threads(request.query, account: request.account, options: options)
        let muted = await mutedThreadIds()
        if request.json {
            return try ThreadJSON.encode(SearchJSON.Page(query: request.query, results: page.hits.map { SearchJSON.thread($0, muted: muted) },
                                                         nextCursor: page.nextCursor?.encoded, hasMore: page.hasMore))
        }
        let me = Set(try await accountService.all().map(\.email))
        return render(page.hits.map { threadLines($0, me: me, muted: muted, request) }, next: page.nextCursor, request)
    }

    private func cursor(_ request: SearchRequest) throws -> SearchCursor? {
        guard let text = request.cursor else { return nil }
        guard let cursor = SearchCursor(encoded: text) else {
            throw CommandError("--cursor '\(text)' is not a cursor; pass the nextCursor a previous page printed", usage: true)
        }
        if case .after = cursor, request.sort == .relevance || request.semantic {
            throw CommandError("--cursor '\(text)' comes from a newest-first search; pass it with --sort newest", usage: true)
        }
        return cursor
    }

    private func render(_ rows: [[String]], next: SearchCursor?, _ request: SearchRequest) -> String {
        guard !rows.isEmpty else {
            return request.cursor == nil ? "No \(request.messages ? "message" : "conversation") matches \(request.query)." : "No more results."
        }
        var lines = rows.flatMap { $0 }
        if let next {
            var more = "More: vaultmail search \(Self.shellQuoted(request.query)) --cursor \(next.encoded)"
            if request.messages { more += " --messages" }
            if request.sort == .relevance { more += " --sort relevance" }
            if request.semantic { more += " --semantic" }
            if let account = request.account { more += " --account \(Self.shellQuoted(account))" }
            lines.append(more)
        }
        return lines.joined(separator: "\n")
    }

    private func threadLines(_ hit: ThreadSearchHit, me: Set<String>, muted: Set<String>, _ request: SearchRequest) -> [String] {
        var thread = hit.thread
        thread.snippet = nil
        return [ThreadRow.render(thread, dates: dates, me: me, muted: muted.contains(thread.id)), highlightLine(hit.highlight, request)].compactMap { $0 }
    }

    private func messageLines(_ hit: MessageSearchHit, _ request: SearchRequest) -> [String] {
        let email = hit.email
        let markers = (email.isRead ? " " : "●") + (email.isStarred ? "★" : " ") + (email.hasAttachments ? "+" : " ")
        let from = ThreadRow.fit(email.fromName.flatMap { $0.isEmpty ? nil : $0 } ?? email.fromAddress, 18)
        let line = "\(markers) \(email.id.prefix(ThreadRow.idLength)) \(from) \(ThreadRow.fit(email.subject, 37)) \(ThreadRow.pad(dates.string(for: email.dateReceived), 8, leading: true))"
        return [line, highlightLine(hit.highlight, request)].compactMap { $0 }
    }

    /// The snippet under a row, indented, cut to the line, matches marked.
    private func highlightLine(_ snippet: SearchSnippet?, _ request: SearchRequest) -> String? {
        guard let snippet, !snippet.text.isEmpty else { return nil }
        var budget = ThreadRow.width - 7
        var out = ""
        for segment in snippet.segments where budget > 0 {
            let text = segment.text.count > budget ? String(segment.text.prefix(budget - 1)) + "…" : segment.text
            budget -= text.count
            out += segment.isMatch ? (request.bold ? "\u{1B}[1m\(text)\u{1B}[0m" : "[\(text)]") : text
        }
        return "      " + out
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
