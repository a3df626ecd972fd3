import Foundation
import VaultMailCore

/// Loads what a request shows, through the use cases: the sidebar, a list page, a
/// conversation. Failures become states the page shows (with a retry), not errors.
struct MailScreen {
    let mail: WebMail
    let sanitized: SanitizedCache

    struct Context {
        var accounts: [Account]
        var folders: [String: [Folder]]
        /// Unread conversations per category of the folders whose count is shown (inbox,
        /// spam, the user's own), when asked for.
        var unread: [String: [AICategory?: Int]] = [:]
        /// Every conversation of each Drafts folder (AC-U-05: Drafts shows its count), when asked for.
        var drafts: [String: Int] = [:]
        /// Whether it was read with its counts (`context(counts: true)`).
        var counted = false
        var me: Set<String> { Set(accounts.map { $0.email.lowercased() }) }
        var names: [String: String] { Dictionary(accounts.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a }) }

        /// The counts of every account's folders of `type`, added up (the unified view's).
        func unread(ofType type: FolderType) -> [AICategory?: Int] {
            folders.values.joined().filter { $0.folderType == type }
                .reduce(into: [:]) { total, folder in total.merge(unread[folder.id] ?? [:], uniquingKeysWith: +) }
        }
    }

    /// The accounts and their folders; with `counts`, the unread counts the sidebar shows,
    /// read once for the whole page.
    func context(counts: Bool = false) async -> Context {
        let accounts = (try? await mail.accountService.active()) ?? []
        var context = Context(accounts: accounts, folders: [:])
        for account in accounts {
            context.folders[account.id] = SidebarView.sorted((try? await mail.mailboxes.folders(accountId: account.id)) ?? [])
        }
        guard counts else { return context }
        context.counted = true
        for folder in context.folders.values.joined() where Self.showsCount(folder.folderType) {
            context.unread[folder.id] = try? await mail.mailboxes.unreadCounts(folderId: folder.id)
        }
        for folder in context.folders.values.joined() where folder.folderType == .drafts {
            context.drafts[folder.id] = try? await mail.mailboxes.conversationCount(folderId: folder.id)
        }
        return context
    }

    static func showsCount(_ type: FolderType) -> Bool {
        type == .inbox || type == .spam || type == .custom
    }

    func sidebar(_ context: Context, current: Mailbox) async -> SidebarView {
        let outbox = try? await mail.mailboxes.outbox(accountId: nil).count
        let sections = context.accounts.map { account in
            SidebarView.AccountSection(account: account, folders: (context.folders[account.id] ?? []).map { folder in
                folder.folderType == .drafts
                    ? SidebarView.Entry(mailbox: .folder(id: folder.id), name: folder.name, count: context.counted ? context.drafts[folder.id] ?? nil : 0,
                                        icon: folder.folderType.icon, what: "drafts")
                    : SidebarView.Entry(mailbox: .folder(id: folder.id), name: folder.name,
                                        count: Self.showsCount(folder.folderType) ? context.unread[folder.id]?[nil] ?? nil : 0,
                                        icon: folder.folderType.icon)
            })
        }
        let top: [SidebarView.Entry] = [
            .init(mailbox: .allInboxes, name: context.accounts.count > 1 ? "All inboxes" : "Inbox",
                  count: context.unread(ofType: .inbox)[nil] ?? 0, icon: .unread),
            .init(mailbox: .outbox, name: "Outbox", count: outbox, icon: .move),
        ]
        let waiting = (try? await mail.conversations.pendingChanges?.waiting()) ?? []
        return SidebarView(top: top, accounts: sections, current: current, pending: PendingChangesView(changes: waiting).render())
    }

    /// The list's title and the folders its selection can move to.
    func describe(_ mailbox: Mailbox, _ context: Context) -> (title: String, moveTargets: [Folder]) {
        switch mailbox {
        case .unified(.inbox):
            // One account: its folders (but the inbox itself); several: no one folder list fits.
            let targets = moveTargets(context.accounts.count == 1 ? context.accounts.first : nil, context, excluding: nil)
            return (context.accounts.count > 1 ? "All inboxes" : "Inbox", targets.filter { $0.folderType != .inbox })
        case .unified(let type):
            return ("All \(type.rawValue)", [])
        case .outbox:
            return ("Outbox", [])
        case .folder(let id):
            let folder = context.folders.values.joined().first { $0.id == id }
            let account = context.accounts.first { $0.id == folder?.accountId }
            return (folder?.name ?? "Folder", moveTargets(account, context, excluding: id))
        }
    }

    private func moveTargets(_ account: Account?, _ context: Context, excluding id: String?) -> [Folder] {
        guard let account else { return [] }
        // Snoozed is reached by Snooze, which gives the time (issue 33).
        return (context.folders[account.id] ?? []).filter { $0.id != id && ![.starred, .allMail, .snoozed].contains($0.folderType) }
    }

    enum ListResult {
        case page(ThreadPage, counts: [AICategory?: Int])
        case failed(String)
    }

    /// A page of the list; its unread counts per category come from `context` (empty when it
    /// was read without counts: `unreadCounts`).
    func page(_ mailbox: Mailbox, _ context: Context, category: AICategory?, cursor: ThreadCursor?, limit: Int) async -> ListResult {
        do {
            switch mailbox {
            case .unified(let type):
                let page = try await mail.mailboxes.threads(ofType: type, category: category, cursor: cursor, limit: limit)
                return .page(page, counts: await unreadCounts(mailbox, context))
            case .folder(let id):
                guard let folder = context.folders.values.joined().first(where: { $0.id == id }) else {
                    return .failed("This folder no longer exists. Pick another from the list of mailboxes.")
                }
                let page = try await mail.mailboxes.threads(accountId: folder.accountId, folderId: id, category: category, cursor: cursor, limit: limit)
                return .page(page, counts: await unreadCounts(mailbox, context))
            case .outbox:
                return .page(.empty, counts: [:])
            }
        } catch {
            return .failed("The list could not be read. \(PlainWords.of(error))")
        }
    }

    /// A list's unread conversations per category: its tabs' counts, the window title's (all
    /// categories) and whether it offers "Mark all as read" (its tab's). From `context`, read
    /// in the same snapshot as the sidebar's; a folder whose count the sidebar does not show
    /// (Archive, Sent) is read for this list alone. Empty when `context` was read without counts.
    func unreadCounts(_ mailbox: Mailbox, _ context: Context) async -> [AICategory?: Int] {
        guard context.counted else { return [:] }
        switch mailbox {
        case .unified(let type) where Self.showsCount(type): return context.unread(ofType: type)
        case .unified(let type): return (try? await mail.mailboxes.unreadCounts(ofType: type)) ?? [:]
        case .folder(let id):
            if let counts = context.unread[id] { return counts }
            return (try? await mail.mailboxes.unreadCounts(folderId: id)) ?? [:]
        case .outbox: return [:]
        }
    }

    enum ConversationResult {
        case shown(ConversationView)
        case missing(String)
    }

    /// A conversation as it is shown. `opening` (the user opened it, not a live refresh) opens
    /// it through `Conversations`: its notification goes, and it is marked read in the
    /// background, on the server first.
    /// It shows the newest `shown` messages (at least a page, `ConversationView.pageSize`),
    /// older ones a link away (E-06).
    func conversation(_ threadId: String, mailbox: Mailbox, category: AICategory?, context: Context,
                      imagesFor: String?, csrf: String, dates: RelativeDate, opening: Bool, shown: Int? = nil) async -> ConversationResult {
        let conversation: Conversation
        let newest = max(ConversationView.pageSize, shown ?? 0)
        do {
            conversation = opening ? try await mail.conversations.open(threadId, newest: newest)
                : try await mail.conversations.conversation(threadId, newest: newest)
        } catch {
            return .missing("This conversation no longer exists: it was deleted or moved away on the server.")
        }
        let (thread, emails) = (conversation.thread, conversation.messages)
        let settings = (Set(await mail.notificationSettings.mutedThreadIds()), Set(await mail.notificationSettings.vips()),
                        await mail.preferences.general().remoteImages)
        var messages: [ConversationView.Message] = []
        for (index, email) in emails.enumerated() {
            // OpenPGP (issue 32): the ciphertext and signature parts are not files, and a
            // decrypted message is shown as text here (its HTML frame reads the stored message).
            let crypto = conversation.crypto[email.id]
            let stored = email.hasAttachments ? ((try? await mail.mailboxes.attachments(emailId: email.id)) ?? []) : []
            let attachments = crypto?.listed(stored) ?? stored
            let allowed = await mail.preferences.remoteImagesAllowed(from: email.fromAddress, asked: imagesFor == email.id)
            let html = crypto != nil ? nil : email.bodyHTML.map { sanitized.outline(emailId: email.id, html: $0) }
            if opening, let trackers = html?.trackers, !trackers.isEmpty {
                await mail.privacy?.record(emailId: email.id, sender: email.fromAddress, findings: trackers)
            }
            messages.append(.init(email: email, attachments: attachments, html: html, imagesAllowed: allowed,
                                  expanded: !email.isRead || index == emails.count - 1,
                                  events: await calendarEvents(emailId: email.id, attachments: attachments), crypto: crypto?.state,
                                  setupMessage: email.hasAttachments ? await mail.autocryptSetup?.setupMessage(email) : nil))
        }
        let account = context.accounts.first { $0.id == thread.accountId }
        let targets = moveTargets(account, context, excluding: mailbox.folderId)
        let decision = try? await mail.categories?.decision(emailId: emails[emails.count - 1].id)
        var view = ConversationView(thread: thread, messages: messages, mailbox: mailbox, category: category,
                                    isMuted: settings.0.contains(thread.id), vips: settings.1, me: context.me,
                                    moveTargets: targets, csrf: csrf, dates: dates, imagesNever: settings.2 == .never,
                                    categoryDecision: decision ?? nil)
        view.olderCount = conversation.olderCount
        view.isWatched = await mail.notificationSettings.preferences(accountIds: []).watchedThreadIds.contains(thread.id)
        if let followUp = mail.followUp {
            view.offersFollowUp = emails.contains { $0.folderTypes.contains(.sent) || context.me.contains($0.fromAddress.lowercased()) }
            view.followUp = await followUp.reminder(threadId: thread.id)
        }
        view.summary = await summaryPanel(threadId: thread.id, messageCount: emails.count + conversation.olderCount)
        view.offersReplies = mail.replySuggestions != nil
        view.unsubscribe = try? await mail.unsubscribe?.offer(id: thread.id)
        if let snooze = mail.snooze {
            view.snoozeMenu = SnoozeMenu(presets: snooze.presets(), dates: dates, now: mail.clock.now, timeZone: mail.clock.timeZone,
                                         label: "Snooze conversation until", scope: "conv")
            view.snoozedUntil = await snooze.times([thread.id])[thread.id]
        }
        return .shown(view)
    }
}

extension Mailbox {
    var folderId: String? {
        if case .folder(let id) = self { return id }
        return nil
    }
}
