import Foundation
import VaultMailCore

extension CommandSession {
    /// `--sync-window-days N|all`: days (1 … 36500) or `all` (`AppConstants.allMailSyncWindowDays`).
    public static func syncWindowDays(_ text: String) throws -> Int {
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        if value == "all" { return AppConstants.allMailSyncWindowDays }
        guard let days = Int(value), (1...AppConstants.allMailSyncWindowDays).contains(days) else {
            throw CommandError(
                "--sync-window-days: '\(text)' is neither a number of days (1–\(AppConstants.allMailSyncWindowDays)) nor 'all'",
                usage: true)
        }
        return days
    }

    /// How a window reads: "all mail" or "the last N days".
    public static func describeSyncWindow(_ days: Int) -> String {
        days >= AppConstants.allMailSyncWindowDays ? "all mail" : days == 1 ? "the last day" : "the last \(days) days"
    }

    /// `vaultmail account set NAME --sync-window-days N|all`, through the same
    /// `Accounts.update` as the web app's account settings. A wider window makes
    /// the next sync fetch the older mail (newest first); a narrower one deletes nothing.
    public func setAccount(named name: String, syncWindowDays days: Int) async throws -> String {
        guard (1...AppConstants.allMailSyncWindowDays).contains(days) else {
            throw CommandError("--sync-window-days must be between 1 and \(AppConstants.allMailSyncWindowDays), or 'all'", usage: true)
        }
        var account = try await account(named: name)
        let before = account.syncWindowDays
        account.syncWindowDays = days
        do {
            try await accountService.update(account)
        } catch {
            throw CommandError.presenting(error)
        }
        let window = Self.describeSyncWindow(days)
        let widened = min(days, AppConstants.allMailSyncWindowDays) > min(before, AppConstants.allMailSyncWindowDays)
        let effect = if widened {
            "the next sync fetches the older mail, newest first"
        } else if days == before {
            "unchanged"
        } else {
            "mail already stored is kept; sync no longer reaches further back"
        }
        return "Account '\(name)' keeps \(window) (\(effect))."
    }
}
