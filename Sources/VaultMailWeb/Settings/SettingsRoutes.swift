import Foundation
import Hummingbird
import VaultMailCore
import VaultMailNotifications

extension WebApp {
    /// `GET /settings` and the forms it posts. Every change goes to the running daemon's
    /// settings (this process's `SettingsStore`) and is stored at once, so the next mail is
    /// decided by it; the command line beside the daemon sees it too.
    func addSettingsRoutes(to router: Router<WebRequestContext>) {
        router.get("/settings") { request, context -> Response in
            let query = try request.query(SettingsQuery.self)
            return Pages.html(await self.settingsView(query, csrf: self.csrf(context: context)).render())
        }
        router.post("/settings/general") { request, context -> Response in
            let form = try context.form(GeneralSettingsForm.self)
            await self.mail.preferences.change(
                undoSendDelaySeconds: Int(form.undoDelay ?? ""), markReadOnOpen: form.markReadOnOpen == "1",
                remoteImages: RemoteImagePolicy(rawValue: form.remoteImages ?? ""), theme: Theme(rawValue: form.theme ?? ""),
                listDensity: ListDensity(rawValue: form.density ?? ""))
            if let after = AfterTriage(rawValue: form.afterTriage ?? "") { await self.mail.preferences.setAfterTriage(after) }
            await self.mail.preferences.setDateHeadings(form.dateHeadings == "1")
            return await self.settingsSaved(request, "Saved.", section: "general")
        }
        router.post("/settings/notifications") { request, context -> Response in
            let form = try context.form(NotificationSettingsForm.self)
            let accounts = (try? await self.mail.accountService.all()) ?? []
            let service = self.mail.notificationSettings
            var problems: [String] = []
            func apply(_ change: () async throws -> Void) async {
                do { try await change() } catch { problems.append(PlainWords.of(error)) }
            }
            await apply { try await service.setSound(form.sound == "1") }
            for category in SettingsView.categories {
                await apply { try await service.setCategory(category.rawValue, on: form.switchedOn.contains("category:\(category.rawValue)")) }
            }
            await apply { try await service.setQuietHours(from: form.quietStart ?? "", to: form.quietEnd ?? "") }
            await apply { try await service.setQuietHoursOn(form.quietHours == "1") }
            if let content = form.content { await apply { try await service.setContent(content) } }
            for account in accounts {
                if let names = form.authserv[account.id] { await apply { try await service.setAuthservIds(names.isEmpty ? "auto" : names, accountName: account.name) } }
            }
            // Switching on goes through the permission of the notification server (AC-N-02).
            await apply {
                try await service.setNotifications(
                    master: form.notifications == "1",
                    accounts: Dictionary(uniqueKeysWithValues: accounts.map { ($0.id, form.switchedOn.contains("account:\($0.id)")) }))
            }
            let problem = problems.first
            await self.events.publish(.changed)
            return await self.settingsSaved(request, problem ?? "Saved: the next new mail follows these rules.", section: "notifications",
                                            failed: problem != nil)
        }
        addSettingsListRoutes(to: router)
    }

    /// The VIP and muted lists: add or remove a VIP, unmute a conversation.
    private func addSettingsListRoutes(to router: Router<WebRequestContext>) {
        router.post("/settings/vip") { request, context -> Response in
            let form = try context.form(VIPForm.self)
            let message: String, failed: Bool
            do {
                if let address = form.remove {
                    message = "\(try await self.mail.notificationSettings.removeVIP(address)) is no longer a VIP."
                } else {
                    message = NotificationSettings.vipAdded(try await self.mail.notificationSettings.addVIP(form.add ?? ""))
                }
                failed = false
            } catch {
                (message, failed) = (PlainWords.of(error), true)
            }
            return await self.settingsSaved(request, message, section: "notifications", failed: failed)
        }
        router.post("/settings/storage/clear-images") { request, _ -> Response in
            let freed = self.mail.storage?.clearImageCache() ?? 0
            return await self.settingsSaved(request, "Cached images cleared: \(AIModelsView.size(Int64(freed))) freed. They are fetched again when a message shows them.",
                                            section: "storage")
        }
        router.post("/settings/default-account") { request, context -> Response in
            let id = try context.form(UnmuteForm.self).id ?? ""
            let message: String, failed: Bool
            do {
                try await self.mail.accountService.setDefault(accountId: id)
                let name = try await self.mail.accountService.account(id: id)?.name ?? id
                (message, failed) = ("New mail is written from \(name) unless you choose another.", false)
            } catch {
                (message, failed) = (PlainWords.of(error), true)
            }
            return await self.settingsSaved(request, message, section: "accounts", failed: failed)
        }
        router.post("/settings/unwatch") { request, context -> Response in
            let thread = try context.form(UnmuteForm.self).t ?? ""
            let message: String, failed: Bool
            do {
                try await self.mail.notificationSettings.unwatch(threadIds: [thread])
                (message, failed) = ("It notifies like any conversation again.", false)
            } catch {
                (message, failed) = (PlainWords.of(error), true)
            }
            await self.events.publish(.changed)
            return await self.settingsSaved(request, message, section: "notifications", failed: failed)
        }
        router.post("/settings/unmute") { request, context -> Response in
            let thread = try context.form(UnmuteForm.self).t ?? ""
            let message: String, failed: Bool
            do {
                try await self.mail.notificationSettings.unmute(threadIds: [thread])
                (message, failed) = ("Unmuted: new mail in it notifies again.", false)
            } catch {
                (message, failed) = (PlainWords.of(error), true)
            }
            await self.events.publish(.changed)
            return await self.settingsSaved(request, message, section: "notifications", failed: failed)
        }
    }

    /// `GET /settings`: a message's "why (not) notified?" (`why=EMAIL`) and a notice.
    struct SettingsQuery: Decodable {
        var why: String?
        var notice: String?
    }

    /// The general section: undo delay, mark-read-on-open, remote images, theme, density, what
    /// opens after triage, date headings (a checkbox: `1` when on, absent when off).
    private struct GeneralSettingsForm: Decodable {
        var undoDelay: String?
        var markReadOnOpen: String?
        var remoteImages: String?
        var theme: String?
        var density: String?
        var afterTriage: String?
        var dateHeadings: String?
    }

    /// The notification section: its switches are `1` when on and absent when off (checkboxes);
    /// a category's is `category:NAME`, an account's `account:ID`.
    private struct NotificationSettingsForm: Decodable {
        var notifications: String?
        var sound: String?
        var quietHours: String?
        var quietStart: String?
        var quietEnd: String?
        /// What a notification shows: full, sender or none.
        var content: String?
        /// Each account's authserv-id field (`authserv:ID`), by account id; empty: auto.
        var authserv: [String: String] = [:]
        /// The names of the category and account switches posted as on.
        var switchedOn: Set<String> = []

        private struct Field: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: Field.self)
            func value(_ name: String) throws -> String? { try fields.decodeIfPresent(String.self, forKey: Field(stringValue: name)) }
            notifications = try value("notifications")
            sound = try value("sound")
            quietHours = try value("quietHours")
            quietStart = try value("quietStart")
            quietEnd = try value("quietEnd")
            content = try value("content")
            for key in fields.allKeys where key.stringValue.hasPrefix("authserv:") {
                authserv[String(key.stringValue.dropFirst("authserv:".count))] = try fields.decode(String.self, forKey: key)
                    .trimmingCharacters(in: .whitespaces)
            }
            for key in fields.allKeys where key.stringValue.hasPrefix("category:") || key.stringValue.hasPrefix("account:") {
                if try fields.decode(String.self, forKey: key) == "1" { switchedOn.insert(key.stringValue) }
            }
        }
    }

    /// Add a VIP (`add=`) or remove one (`remove=`).
    private struct VIPForm: Decodable {
        var add: String?
        var remove: String?
    }

    /// Unmute one conversation (`t=`), or name an account (`id=`).
    private struct UnmuteForm: Decodable {
        var t: String?
        var id: String?
    }

    /// JSON for the script, else back to the page's section with the message.
    private func settingsSaved(_ request: Request, _ message: String, section: String, failed: Bool = false) async -> Response {
        if request.headers[.accept]?.contains("application/json") == true {
            return Pages.json(JSONReply.Message(message: message), status: failed ? .badRequest : .ok)
        }
        return Pages.redirect("/settings?notice=\(WebForm.escape(message))#\(section)")
    }

    func settingsView(_ query: SettingsQuery, csrf: String) async -> SettingsView {
        let accounts = (try? await mail.accountService.all()) ?? []
        let notifications = await mail.notificationSettings.preferences(accountIds: accounts.map(\.id))
        let s = await mail.preferences.general()
        var values = SettingsView.Values(
            undoDelay: s.undoSendDelaySeconds, markReadOnOpen: s.markReadOnOpen, remoteImages: s.remoteImages, theme: s.theme,
            density: s.listDensity, afterTriage: await mail.preferences.afterTriage(),
            dateHeadings: await mail.preferences.dateHeadings(), notificationsOn: notifications.on, sound: notifications.sound,
            accountNotifications: notifications.accounts, categories: notifications.categories, vips: notifications.vips,
            quietHoursOn: notifications.quietHoursOn, quietStart: notifications.quietHoursStart, quietEnd: notifications.quietHoursEnd,
            content: notifications.content)
        func listed(_ conversations: [(id: String, subject: String?)]) -> [SettingsView.Muted] {
            conversations.map { conversation in
                SettingsView.Muted(id: conversation.id, subject: conversation.subject.map { $0.isEmpty ? "(no subject)" : $0 }
                    ?? "A conversation no longer here")
            }
        }
        let muted = listed((try? await mail.notificationSettings.mutedConversations()) ?? [])
        var trust: [String: AuthservTrust] = [:]
        for account in accounts { trust[account.id] = try? await mail.notificationSettings.authservTrust(accountId: account.id) }
        values.authserv = trust
        var asked: NotificationDecision?
        var askedMissing: String?
        if let emailId = query.why, !emailId.isEmpty {
            asked = try? await mail.notificationHistory.decision(emailId: emailId)
            if asked == nil { askedMissing = "No decision was recorded for that message: it arrived in a first sync, or before VaultMail kept decisions." }
        }
        var privacy: SettingsView.PrivacyFacts?
        if let shield = mail.privacy {
            privacy = SettingsView.PrivacyFacts(status: shield.shield.status, totals: await shield.totals())
        }
        var view = SettingsView(
            values: values, accounts: accounts, muted: muted, watched: listed((try? await mail.notificationSettings.watchedConversations()) ?? []), server: await mail.notificationServer(),
            decisions: (try? await mail.notificationHistory.recent(limit: 15)) ?? [], asked: asked, askedMissing: askedMissing,
            notice: query.notice, csrf: csrf, dates: dates, privacy: privacy)
        view.defaultAccountId = (try? await mail.accountService.defaultAccount())?.id
        if mail.autocryptSetup != nil {
            view.encryption = SettingsView.Encryption(accounts: accounts)
        }
        if let storage = mail.storage {
            do {
                view.storage = .success(try await storage.report())
            } catch {
                view.storage = .failure(.init(words: PlainProblem(error).led(by: "What the store holds could not be measured. ").words))
            }
        }
        return view
    }
}
