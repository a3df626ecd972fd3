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
            let query = FormFields(request.uri.query ?? "")
            return Pages.html(await self.settingsView(query, csrf: self.csrf(context: context)).render())
        }
        router.post("/settings/general") { request, context -> Response in
            let form = context.form
            await MainActor.run {
                let settings = self.mail.settings
                if let delay = Int(form["undoDelay"] ?? ""), (0...300).contains(delay) { settings.undoSendDelaySeconds = delay }
                settings.markReadOnOpen = form["markReadOnOpen"] == "1"
                if let policy = RemoteImagePolicy(rawValue: form["remoteImages"] ?? "") { settings.remoteImages = policy }
                if let theme = Theme(rawValue: form["theme"] ?? "") { settings.theme = theme }
                if let density = ListDensity(rawValue: form["density"] ?? "") { settings.listDensity = density }
            }
            return await self.settingsSaved(request, "Saved.", section: "general")
        }
        router.post("/settings/notifications") { request, context -> Response in
            let form = context.form
            let accounts = (try? await self.mail.accounts.getAccounts()) ?? []
            let start = SettingsView.minutes(form["quietStart"]), end = SettingsView.minutes(form["quietEnd"])
            let problem: String? = await MainActor.run {
                let settings = self.mail.settings
                settings.notificationsEnabled = form["notifications"] == "1"
                settings.notificationSound = form["sound"] == "1"
                for account in accounts {
                    let on = form["account:\(account.id)"] == "1"
                    if settings.notificationsEnabled(for: account.id) != on { settings.setNotificationsEnabled(on, for: account.id) }
                }
                for category in SettingsView.categories {
                    settings.setNotificationCategory(category.rawValue, enabled: form["category:\(category.rawValue)"] == "1")
                }
                settings.quietHoursEnabled = form["quietHours"] == "1"
                guard let start, let end else { return "Write the quiet hours as times of day, such as 22:00 and 07:00." }
                do {
                    try settings.setQuietHours(start: start, end: end)
                } catch {
                    return "\(error)"
                }
                return nil
            }
            await self.events.publish(.changed)
            return await self.settingsSaved(request, problem ?? "Saved: the next new mail follows these rules.", section: "notifications",
                                            failed: problem != nil)
        }
        router.post("/settings/vip") { request, context -> Response in
            let form = context.form
            let message: String = await MainActor.run {
                let settings = self.mail.settings
                if let address = form["remove"] {
                    settings.removeVIPContact(address)
                    return "\(address) is no longer a VIP."
                }
                let address = (form["add"] ?? "").trimmingCharacters(in: .whitespaces)
                do {
                    try EmailAddress.validate(address, field: "VIP")
                } catch {
                    return "\(error)"
                }
                settings.addVIPContact(address)
                return "\(address) is a VIP: their mail always notifies."
            }
            return await self.settingsSaved(request, message, section: "notifications")
        }
        router.post("/settings/unmute") { request, context -> Response in
            let id = context.form["t"] ?? ""
            await MainActor.run { _ = self.mail.settings.mutedThreadIds.remove(id) }
            await self.events.publish(.changed)
            return await self.settingsSaved(request, "Unmuted: new mail in it notifies again.", section: "notifications")
        }
    }

    /// JSON for the script, else back to the page's section with the message.
    private func settingsSaved(_ request: Request, _ message: String, section: String, failed: Bool = false) async -> Response {
        if request.headers[.accept]?.contains("application/json") == true {
            return Pages.json(JSONReply.Message(message: message), status: failed ? .badRequest : .ok)
        }
        return Pages.redirect("/settings?notice=\(FormFields.encode(message))#\(section)")
    }

    func settingsView(_ query: FormFields, csrf: String) async -> SettingsView {
        let accounts = (try? await mail.accounts.getAccounts()) ?? []
        let (values, mutedIds) = await MainActor.run { () -> (SettingsView.Values, Set<String>) in
            let s = mail.settings
            let values = SettingsView.Values(
                undoDelay: s.undoSendDelaySeconds, markReadOnOpen: s.markReadOnOpen, remoteImages: s.remoteImages, theme: s.theme,
                density: s.listDensity, notificationsOn: s.notificationsEnabled, sound: s.notificationSound,
                accountNotifications: Dictionary(uniqueKeysWithValues: accounts.map { ($0.id, s.notificationsEnabled(for: $0.id)) }),
                categories: Dictionary(uniqueKeysWithValues: SettingsView.categories.map { ($0.rawValue, s.notificationCategoryEnabled(for: $0.rawValue)) }),
                vips: s.vipContacts.sorted(), quietHoursOn: s.quietHoursEnabled, quietStart: s.quietHoursStart, quietEnd: s.quietHoursEnd)
            return (values, s.mutedThreadIds)
        }
        var muted: [SettingsView.Muted] = []
        for id in mutedIds.sorted() {
            let subject = (try? await mail.emails.getThread(id: id))?.subject
            muted.append(.init(id: id, subject: subject.map { $0.isEmpty ? "(no subject)" : $0 } ?? "A conversation no longer here"))
        }
        var asked: NotificationDecision?
        var askedMissing: String?
        if let emailId = query["why"], !emailId.isEmpty {
            asked = try? await mail.ledger.decision(forEmailId: emailId)
            if asked == nil { askedMissing = "No decision was recorded for that message: it arrived in a first sync, or before VaultMail kept decisions." }
        }
        return SettingsView(
            values: values, accounts: accounts, muted: muted, server: await mail.notificationServer(),
            decisions: (try? await mail.ledger.recentDecisions(limit: 15)) ?? [], asked: asked, askedMissing: askedMissing,
            notice: query["notice"], csrf: csrf, dates: dates)
    }
}
