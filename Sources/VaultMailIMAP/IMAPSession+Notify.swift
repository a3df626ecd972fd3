import Foundation

/// STATUS and NOTIFY (RFC 5465), written and read with the raw line helpers: their untagged
/// responses are parsed by `IMAPResponseLine`, which also sees the STATUS lines NOTIFY sends
/// during IDLE.
extension IMAPSession {
    /// STATUS of `mailbox` with `items` (`MESSAGES`, `UIDNEXT`, …). When `mailbox` is the
    /// selected one, it is unselected first (UNSELECT), so the answer is current.
    func status(_ mailbox: String, items: [String]) throws(IMAPError) -> IMAPStatusResponse {
        let operation = "ask for the status of \"\(mailbox)\" on"
        _ = try session(operation)
        let name = try quoted(mailbox: mailbox, operation: operation)
        if let selected = selectedMailbox, selected == mailbox || (selected.uppercased() == "INBOX" && mailbox.uppercased() == "INBOX") {
            // STATUS of the selected mailbox answers from the session's view, which lags
            // behind (Dovecot: "[CLIENTBUG] Status on selected mailbox"): leave it first
            // (UNSELECT, RFC 3691), or bring the view up to date (NOOP) where UNSELECT is missing.
            if capabilities.contains("UNSELECT") {
                let unselect = try sendRawCommand("UNSELECT", operation: operation)
                _ = try readUntilTagged(unselect, operation: operation)
                markSelected(nil)
            } else {
                let noop = try sendRawCommand("NOOP", operation: operation)
                _ = try readUntilTagged(noop, operation: operation)
            }
        }
        let tag = try sendRawCommand("STATUS \(name) (\(items.joined(separator: " ")))", operation: operation)
        let events: [IMAPServerEvent]
        do {
            events = try readUntilTagged(tag, operation: operation)
        } catch {
            var named = error
            named.mailbox = mailbox
            throw named
        }
        let wanted = mailbox.uppercased() == "INBOX" ? "INBOX" : mailbox
        for case .mailboxStatus(let status) in events where status.mailbox == wanted {
            return status
        }
        throw makeError(.protocolError, operation, mailbox: mailbox, reason: "the server answered STATUS without the mailbox's status")
    }

    /// `NOTIFY SET …`: the server reports changes of the mailboxes `arguments` names (RFC 5465
    /// §5), also outside IDLE. Refused when the server has no NOTIFY.
    func notifySet(_ arguments: String) throws(IMAPError) {
        let operation = "ask for notifications (NOTIFY) on"
        _ = try session(operation)
        guard capabilities.contains("NOTIFY") else {
            throw makeError(.unsupported, operation, reason: "the server has no NOTIFY")
        }
        let tag = try sendRawCommand("NOTIFY SET \(arguments)", operation: operation)
        _ = try readUntilTagged(tag, operation: operation)
    }

    /// `NOTIFY NONE`: no more notifications.
    func notifyNone() throws(IMAPError) {
        let operation = "stop notifications (NOTIFY NONE) on"
        _ = try session(operation)
        let tag = try sendRawCommand("NOTIFY NONE", operation: operation)
        _ = try readUntilTagged(tag, operation: operation)
    }

    /// A mailbox name as an IMAP quoted string, in modified UTF-7.
    private func quoted(mailbox: String, operation: String) throws(IMAPError) -> String {
        let encoded = ModifiedUTF7.encode(mailbox)
        guard !encoded.isEmpty, !encoded.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
            throw makeError(.invalidRequest, operation, mailbox: mailbox, reason: "a mailbox name cannot be empty or contain a line break")
        }
        return "\"" + encoded.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
