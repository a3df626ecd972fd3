import Foundation
import VaultMailCore

extension CommandSession {
    public struct ThreadQuery: Sendable {
        public var account: String?
        public var all = false
        public var folder = "inbox"
        public var category: AICategory?
        public var limit = AppConstants.threadListPageSize
        public var cursor: String?
        public var json = false

        public init() {}
    }

    /// `vaultmail threads`: one account's folder, or every account's folders of that type.
    public func threads(_ query: ThreadQuery) async throws -> String {
        guard (1...500).contains(query.limit) else { throw CommandError("--limit must be between 1 and 500", usage: true) }
        let cursor = try query.cursor.map { text -> ThreadCursor in
            guard let cursor = ThreadCursor(encoded: text) else {
                throw CommandError("--cursor '\(text)' is not a cursor; pass the nextCursor a previous page printed", usage: true)
            }
            return cursor
        }
        if query.folder.lowercased() == "outbox" { return try await outbox(account: query.account, json: query.json) }
        let accounts = try await accountService.all()
        guard !accounts.isEmpty else { throw CommandError("no accounts yet; add one with `vaultmail account add`") }
        let page: ThreadPage = switch try await list(query, accounts: accounts) {
        case (.folder(let id, let category), let accountId?):
            try await mailboxes.threads(accountId: accountId, folderId: id, category: category, cursor: cursor, limit: query.limit)
        case (.folder, nil):
            throw CommandError("no account owns --folder \(query.folder)")
        case (.unified(let type, let category), _):
            try await mailboxes.threads(ofType: type, category: category, cursor: cursor, limit: query.limit)
        }
        let muted = await mutedThreadIds()
        if query.json { return try ThreadJSON.encode(ThreadJSON.page(page, muted: muted)) }
        guard !page.threads.isEmpty else { return "No conversations in \(query.folder)." }
        let me = Set(accounts.map(\.email))
        var lines = page.threads.map { ThreadRow.render($0, dates: dates, me: me, muted: muted.contains($0.id)) }
        if let next = page.nextCursor { lines.append("More: vaultmail threads --cursor \(next.encoded)") }
        return lines.joined(separator: "\n")
    }

    /// The list a query names: the named account's folder (or the only account's), or every
    /// account's folders of that type (`--all`, or several accounts), in `--category`.
    private func list(_ query: ThreadQuery, accounts: [Account]) async throws -> (list: ConversationList, accountId: String?) {
        if let name = query.account, !query.all {
            let account = try await account(named: name)
            return (.folder(id: try await folder(query.folder, of: account).id, category: query.category), account.id)
        } else if !query.all, accounts.count == 1 {
            return (.folder(id: try await folder(query.folder, of: accounts[0]).id, category: query.category), accounts[0].id)
        }
        guard let type = FolderType(rawValue: query.folder.lowercased()) else {
            throw CommandError("with several accounts, --folder takes a folder type (inbox, sent, drafts, trash, spam, archive, starred); name an --account for its own folders", usage: true)
        }
        return (.unified(type, category: query.category), nil)
    }

    /// `vaultmail read --folder …`: every unread conversation of the list `vaultmail threads`
    /// shows with the same options, marked read as the web app's "Mark all as read" does
    /// (Core's `Conversations.markAllRead`: server first, kept for it when it cannot be reached).
    /// The list as it is when the command runs.
    public func markAllRead(_ query: ThreadQuery, using repository: any EmailRepository) async throws -> String {
        if query.folder.lowercased() == "outbox" { throw CommandError("the outbox holds nothing to mark read", usage: true) }
        let accounts = try await accountService.all()
        guard !accounts.isEmpty else { throw CommandError("no accounts yet; add one with `vaultmail account add`") }
        let conversations = conversations(using: repository)
        let result = try await conversations.markAllRead(in: try await list(query, accounts: accounts).list)
        return try await report("read", result, conversations)
    }

    /// The outbox: messages queued, being sent, or failed.
    public func outbox(account name: String?, json: Bool) async throws -> String {
        var accountId: String?
        if let name { accountId = try await account(named: name).id }
        let pending = try await mailboxes.outbox(accountId: accountId)
        if json {
            return try ThreadJSON.encode(pending.map { ThreadJSON.message($0, attachments: []) })
        }
        guard !pending.isEmpty else { return "The outbox is empty." }
        // Send later (issue 33): a message waiting for its time says when it goes.
        let later = Dictionary(try await sending.compose.scheduled(accountId: accountId).compactMap { entry in entry.sendAt.map { (entry.id, $0) } },
                               uniquingKeysWith: { first, _ in first })
        return pending.map { email in
            let to = email.toAddresses.map(\.email).joined(separator: ", ")
            let line = "\(ThreadRow.pad(email.sendState.rawValue, 8)) \(email.id.prefix(ThreadRow.idLength)) \(ThreadRow.fit(to, 24)) \(ThreadRow.fit(email.subject, 34))"
            return later[email.id].map { line + " at \(Snooze.localText($0, timeZone: clock.timeZone))" } ?? line
        }.joined(separator: "\n")
    }

    /// Opening and acting on conversations through Core's `Conversations`, over `repository`
    /// (`services.emails`: the server first).
    /// The conversations muted for notifications (NOTIF-11), marked in lists and `show`.
    func mutedThreadIds() async -> Set<String> {
        Set(await notificationSettings.mutedThreadIds())
    }

    public func conversations(using repository: any EmailRepository) -> Conversations {
        dependencies.conversations(using: repository)
    }

    /// `vaultmail show`: a conversation with all its messages, oldest first. Shown as text it
    /// is opened, as in the web app: marked read (when the setting says so) on the server and
    /// then here. `--json` is a look-up for scripts and changes nothing.
    public func show(_ threadPrefix: String, json: Bool) async throws -> String {
        let id = try await threadId(threadPrefix)
        let conversation: Conversation
        do {
            let conversations = conversations(using: services.emails)
            conversation = json ? try await conversations.conversation(id) : try await conversations.open(id)
        } catch {
            throw CommandError("cannot show thread \(id.prefix(ThreadRow.idLength)): \(error)")
        }
        let (thread, messages) = (conversation.thread, conversation.messages)
        let isMuted = await mutedThreadIds().contains(thread.id)
        if json {
            var rendered: [ThreadJSON.Message] = []
            for email in messages {
                rendered.append(ThreadJSON.message(email, attachments: try await mailboxes.attachments(emailId: email.id),
                                                   category: try await categories.decision(emailId: email.id),
                                                   crypto: conversation.crypto[email.id]))
            }
            await dependencies.openPGPEngine.close()
            return try ThreadJSON.encode(ThreadJSON.thread(thread, muted: isMuted, emails: rendered))
        }
        let count = "\(thread.messageCount) message\(thread.messageCount == 1 ? "" : "s")"
        var out = ["\(thread.subject)", "\(count) · thread \(thread.id.prefix(ThreadRow.idLength))\(isMuted ? " · muted" : "")", ""]
        for email in messages {
            let from = email.fromName.map { "\($0) <\(email.fromAddress)>" } ?? email.fromAddress
            out.append("\(email.isRead ? " " : "●")\(email.isStarred ? "★" : " ") From: \(from)")
            out.append("   To: \(email.toAddresses.map(\.email).joined(separator: ", "))")
            out.append("   Date: \(dates.string(for: email.dateReceived))   Id: \(email.id.prefix(ThreadRow.idLength))")
            // OpenPGP (issue 32): the state in one line; the ciphertext and signature parts are not files.
            let crypto = conversation.crypto[email.id]
            if let crypto { out.append("   OpenPGP: \(crypto.state.summary)") }
            let stored = try await mailboxes.attachments(emailId: email.id)
            for attachment in crypto?.listed(stored) ?? stored {
                out.append("   + \(attachment.filename) (\(attachment.mimeType), \(ByteCountFormatter.string(fromByteCount: Int64(attachment.sizeBytes), countStyle: .file)))")
            }
            out.append("")
            out.append((email.bodyPlain ?? email.snippet ?? "").trimmingCharacters(in: .whitespacesAndNewlines))
            out.append("")
        }
        if let problem = await conversation.markingRead?.value {
            out.append("(Not marked read: \(PlainWords.lines(problem)))")
        }
        await dependencies.openPGPEngine.close()
        return out.joined(separator: "\n")
    }

    public enum ThreadAction: String, Sendable, CaseIterable {
        case read, unread, star, unstar, archive, delete
    }

    /// Applies an action to each thread (through `Conversations`, server first); reports the
    /// ones that failed and why.
    public func apply(_ action: ThreadAction, to prefixes: [String], using repository: any EmailRepository) async throws -> String {
        let ids = try await resolveAll(prefixes)
        let conversationAction: ConversationAction = switch action {
        case .read: .read
        case .unread: .unread
        case .star: .star
        case .unstar: .unstar
        case .archive: .archive
        case .delete: .delete
        }
        let conversations = conversations(using: repository)
        return try await report(action.rawValue, await conversations.perform(conversationAction, on: ids), conversations)
    }

    public func move(_ prefixes: [String], to folderName: String, using repository: any EmailRepository) async throws -> String {
        let ids = try await resolveAll(prefixes)
        guard let first = try await mailboxes.thread(id: ids[0]), let account = try await accountService.account(id: first.accountId) else {
            throw CommandError("thread \(ids[0]) disappeared")
        }
        let folder = try await folder(folderName, of: account)
        let conversations = conversations(using: repository)
        return try await report("move", await conversations.perform(.move(toFolderId: folder.id), on: ids), conversations)
    }

    private func resolveAll(_ prefixes: [String]) async throws -> [String] {
        guard !prefixes.isEmpty else { throw CommandError("name at least one THREAD-ID (`vaultmail threads` shows them)", usage: true) }
        var ids: [String] = []
        for prefix in prefixes { ids.append(try await threadId(prefix)) }
        return ids
    }

    /// What an action did: each failure in a person's words with its details on a second line;
    /// what was done here and waits for the server said so (issue 29).
    private func report(_ verb: String, _ result: BatchActionResult, _ conversations: Conversations) async throws -> String {
        let done = result.succeeded.count
        guard result.failed.isEmpty else {
            let reasons = result.failed.map { "  \($0.id.prefix(ThreadRow.idLength)): \(PlainWords.lines($0.error))" }.joined(separator: "\n")
            throw CommandError("\(result.failed.count) of \(done + result.failed.count) failed to \(verb):\n\(reasons)")
        }
        var lines = ["\(verb): \(done) conversation\(done == 1 ? "" : "s") done"]
        // Done on the server, not yet here (a full disk): said, never "nothing was changed" (issue 34).
        if let first = result.notUpdatedHere.first {
            let which = result.notUpdatedHere.map { String($0.id.prefix(ThreadRow.idLength)) }.joined(separator: ", ")
            lines.append("\(PlainWords.lines(first.error))\n  Conversations: \(which)")
        }
        if let note = PendingChanges.note(result.kept) {
            lines.append(note)
            let waiting = (try? await conversations.pendingChanges?.waiting().count) ?? result.kept.count
            lines += PendingChanges.waitingText(waiting).map { [$0 + " (the daemon, or the next `vaultmail sync`, does them)."] } ?? []
        }
        return lines.joined(separator: "\n")
    }
}
