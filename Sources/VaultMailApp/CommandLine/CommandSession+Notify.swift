import Foundation
import VaultMailCore
import VaultMailNotifications

extension CommandSession {
    /// `vaultmail notify on|off`, through `NotificationSettings`: on asks the notification
    /// server for permission first and stays off when refused.
    public func setNotifications(_ on: Bool) async throws -> String {
        do {
            try await notificationSettings.setNotifications(on)
        } catch {
            throw CommandError.presenting(error)
        }
        return on ? "Notifications are on." : "Notifications are off; mail is still synced and counted (`vaultmail notify on` turns them back on)."
    }

    /// `vaultmail notify account NAME on|off`, as `setNotifications`.
    public func setAccountNotifications(_ name: String, _ on: Bool) async throws -> String {
        let account = try await account(named: name)
        do {
            try await notificationSettings.setNotifications(on, accountId: account.id)
        } catch {
            throw CommandError.presenting(error)
        }
        return "Notifications for \(account.name) (\(account.email)) are \(on ? "on" : "off")."
    }

    /// `vaultmail notify category C on|off`.
    public func setCategoryNotifications(_ name: String, _ on: Bool) async throws -> String {
        do {
            try await notificationSettings.setCategory(name, on: on)
        } catch {
            throw CommandError.presenting(error)
        }
        return "Notifications for \(name.lowercased()) mail are \(on ? "on" : "off")."
    }

    public func vip(add address: String) async throws -> String {
        do {
            let kept = try await notificationSettings.addVIP(address)
            return NotificationSettings.vipAdded(kept)
        } catch {
            throw CommandError.presenting(error)
        }
    }

    public func vip(remove address: String) async throws -> String {
        do {
            return "\(try await notificationSettings.removeVIP(address)) is no longer a VIP."
        } catch {
            throw CommandError.presenting(error)
        }
    }

    public func vipList() async -> String {
        let vips = await notificationSettings.vips()
        return vips.isEmpty ? "No VIPs." : vips.joined(separator: "\n")
    }

    public func mute(_ prefix: String, _ muted: Bool) async throws -> String {
        let id = try await threadId(prefix)
        do {
            if muted {
                try await notificationSettings.mute(threadIds: [id])
            } else {
                try await notificationSettings.unmute(threadIds: [id])
            }
        } catch {
            throw CommandError.presenting(error)
        }
        let subject = try await mailboxes.thread(id: id)?.subject ?? id
        return muted ? "Muted \"\(subject)\": it will not notify." : "Unmuted \"\(subject)\"."
    }

    /// `vaultmail notify watch|unwatch THREAD`: "notify me" (issue 33).
    public func watch(_ prefix: String, _ on: Bool) async throws -> String {
        let id = try await threadId(prefix)
        do {
            if on {
                try await notificationSettings.watch(threadIds: [id])
            } else {
                try await notificationSettings.unwatch(threadIds: [id])
            }
        } catch {
            throw CommandError.presenting(error)
        }
        let subject = try await mailboxes.thread(id: id)?.subject ?? id
        return on ? "You will be notified of replies to \"\(subject)\": they come before other mail, whatever their category."
            : "\"\(subject)\" notifies like any conversation again."
    }

    public func watchedList() async throws -> String {
        let watched = try await notificationSettings.watchedConversations()
        guard !watched.isEmpty else { return "No conversations are marked \u{201C}notify me\u{201D}." }
        return watched.map { "\($0.id.prefix(ThreadRow.idLength)) \($0.subject ?? "(no longer stored)")" }.joined(separator: "\n")
    }

    /// `vaultmail notify show full|sender|none`: what a desktop notification shows (issue 33).
    public func notificationContent(_ words: String) async throws -> String {
        do {
            let level = try await notificationSettings.setContent(words)
            return "Notifications show: \(level.label)."
        } catch {
            throw CommandError.presenting(error)
        }
    }

    /// `vaultmail notify authserv ACCOUNT NAME|auto`: the server whose Authentication-Results
    /// vouch for VIP senders (issue 33).
    public func authserv(_ accountName: String, _ names: String) async throws -> String {
        do {
            let trusted = try await notificationSettings.setAuthservIds(names, accountName: accountName)
            return "Mail of \(accountName) from a VIP breaks through only when Authentication-Results from \(trusted) say the sender passed."
        } catch {
            throw CommandError.presenting(error)
        }
    }

    public func mutedList() async throws -> String {
        let muted = try await notificationSettings.mutedConversations()
        guard !muted.isEmpty else { return "No muted conversations." }
        return muted.map { "\($0.id.prefix(ThreadRow.idLength)) \($0.subject ?? "(no longer stored)")" }.joined(separator: "\n")
    }

    /// `vaultmail notify quiet-hours HH:MM-HH:MM | off`.
    public func quietHours(_ text: String) async throws -> String {
        do {
            if text.lowercased() == "off" {
                try await notificationSettings.setQuietHoursOn(false)
                return "Quiet hours are off."
            }
            let parts = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else { throw NotificationSettingsError.invalidQuietHours(text) }
            try await notificationSettings.setQuietHours(from: parts[0], to: parts[1])
            try await notificationSettings.setQuietHoursOn(true)
            let overnight = (NotificationSettings.minutes(parts[0]) ?? 0) > (NotificationSettings.minutes(parts[1]) ?? 0)
            return "Quiet hours: \(parts[0])–\(parts[1])\(overnight ? " (overnight)" : ""); authenticated VIPs still notify, and what waited is summed up in one notification when they end."
        } catch {
            throw CommandError.presenting(error)
        }
    }

    static func clock(_ minutes: Int) -> String { String(format: "%02d:%02d", minutes / 60, minutes % 60) }

    /// `vaultmail notify why EMAIL-ID`: the decision and the rule that made it.
    public func why(_ prefix: String) async throws -> String {
        let id = try await emailId(prefix)
        let email = try await mailboxes.email(id: id)
        guard let decision = try await notificationHistory.decision(emailId: id) else {
            let reason = try await whyUndecided(emailId: id, accountId: email?.accountId)
            return "No notification decision for \"\(email?.subject ?? id)\": \(reason)"
        }
        let verdict = switch decision.outcome {
        case .notified: "Notified"
        case .badgeOnly: "Counted in the badge, no banner"
        case .suppressed: "Not notified"
        case .failed: "Not shown"
        }
        var text = "\(verdict): \"\(decision.subject)\" from \(decision.fromAddress), \(dates.string(for: decision.decidedAt)) — \(decision.rule.explanation)."
        if let detail = decision.detail { text += "\n(\(detail))" }
        return text
    }

    /// Why an email has no decision, from the daemon lock (is one running now?) and the
    /// session the daemon recorded (when it started and stopped, and from which store mark on
    /// it evaluates each account's mail).
    func whyUndecided(emailId: String, accountId: String?) async throws -> String {
        let running = DaemonLock.isHeld(path: home.daemonLockPath)
        let (session, stored) = try await dependencies.daemonRecord(emailId: emailId)
        guard let session, let stored else {
            return running
                ? "the daemon is running and has not evaluated it yet; ask again in a moment."
                : "it was never evaluated — no daemon has run on this home, and only a running daemon (`vaultmail daemon`) evaluates mail for notification."
        }
        let started = dates.string(for: session.startedAt)
        let mark = accountId.flatMap { session.accountMarks[$0] }
        if running {
            guard let mark else {
                return "the daemon is running but still making its first sync of this account, which never notifies; mail stored after that is evaluated."
            }
            if stored > mark {
                return "the daemon is running and has not evaluated it yet (it evaluates mail that `vaultmail sync` stores within a second); ask again in a moment."
            }
            return "it was already in the store when the daemon began watching this account (the daemon started \(started)) — fetched by `vaultmail sync` before the daemon watched it — and the daemon evaluates only mail that arrives while it watches."
        }
        if let stoppedMark = session.stoppedMark, let stoppedAt = session.stoppedAt {
            if stored > stoppedMark {
                return "no daemon was running when it arrived (the daemon stopped \(dates.string(for: stoppedAt))): mail fetched by `vaultmail sync` is evaluated only by a running daemon (`vaultmail daemon`)."
            }
            if let mark, stored > mark {
                return "it was stored while the daemon ran (from \(started)), but the daemon stopped before evaluating it."
            }
        } else if let mark, stored > mark {
            return "it was stored after the last daemon started (\(started)), and that daemon ended without evaluating it; no daemon is running now."
        }
        guard mark != nil else {
            return "no daemon is running, and none was watching this account when it arrived: mail fetched by `vaultmail sync` is evaluated only by a running daemon (`vaultmail daemon`)."
        }
        return "no daemon was running when it arrived: it was stored before the last daemon started (\(started)), and mail fetched by `vaultmail sync` is evaluated only by a running daemon (`vaultmail daemon`)."
    }

    /// `vaultmail notify log`.
    public func log(limit: Int, json: Bool) async throws -> String {
        guard limit > 0 else { throw CommandError("--limit must be at least 1", usage: true) }
        let decisions = try await notificationHistory.recent(limit: limit)
        if json {
            struct Entry: Encodable {
                var emailId, threadId, accountId, outcome, rule, explanation, subject, from, decidedAt: String
                var detail: String?
            }
            return try ThreadJSON.encode(decisions.map {
                Entry(emailId: $0.emailId, threadId: $0.threadId, accountId: $0.accountId, outcome: $0.outcome.rawValue,
                      rule: $0.rule.rawValue, explanation: $0.rule.explanation, subject: $0.subject, from: $0.fromAddress,
                      decidedAt: ThreadJSON.iso($0.decidedAt), detail: $0.detail)
            })
        }
        guard !decisions.isEmpty else { return "No notification decisions yet." }
        return decisions.map {
            "\(ThreadRow.pad(dates.string(for: $0.decidedAt), 9)) \(ThreadRow.pad($0.outcome.rawValue, 10)) \(ThreadRow.pad($0.rule.rawValue, 18)) \($0.emailId.prefix(ThreadRow.idLength)) \(ThreadRow.cut($0.subject, 28))"
        }.joined(separator: "\n")
    }

    /// The settings part of `vaultmail notify status`.
    public func notificationSettingsSummary() async throws -> [String] {
        let accounts = try await accountService.all()
        let current = await notificationSettings.preferences(accountIds: accounts.map(\.id))
        var lines = ["Notifications: \(current.on ? "on" : "off")"]
        lines.append(current.quietHoursOn
            ? "Quiet hours:   \(Self.clock(current.quietHoursStart))–\(Self.clock(current.quietHoursEnd))"
            : "Quiet hours:   off")
        lines.append("VIPs:          \(current.vips.count)   Muted conversations: \(current.mutedThreadIds.count)   Notify me: \(current.watchedThreadIds.count)")
        lines.append("Shows:         \(current.content.label)")
        let off = current.categories.filter { !$0.value }.keys.sorted()
        lines.append("Categories off: \(off.isEmpty ? "none" : off.joined(separator: ", "))")
        for account in accounts {
            let trust = try await notificationSettings.authservTrust(accountId: account.id)
            lines.append("Account \(account.name): \(current.accounts[account.id] ?? true ? "on" : "off")"
                + (trust.map { "   VIPs vouched for by: \($0.description)\($0.isConfigured ? "" : " (auto)")" } ?? ""))
        }
        lines.append("Badge:         \(try await mailboxes.inboxUnreadCount()) unread in inboxes")
        return lines
    }
}
