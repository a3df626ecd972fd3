/// What a message that did not go out is told, and what happens to it next (issue 34), written
/// once for the tool, the web app's Outbox and the notices after Send and Send now:
///
/// - **queued** (the server could not be reached, or said "try later", 4xx): it waits in the
///   Outbox and the daemon's outbox processor sends it by itself, backing off.
/// - **failed, refused for good** (5xx, e.g. 554): never retried by itself; it stays in the
///   Outbox as not sent with the server's words, until the user changes it or presses Send now.
/// - **failed, fate unknown** (the connection broke after the message went out, before the
///   server's answer): never sent again by itself, so it is never sent twice; it may have
///   arrived: check Sent or a recipient, then send it again explicitly if it did not.
public enum NotSentAdvice {
    /// How `OutboxSender` words a message whose fate is unknown; the kept reason starts with it.
    public static let maybeDelivered = "The message stopped while it was going out: it may have been delivered."

    /// Whether a failed message's kept reason (`OutboxEntry.lastError`) says its fate is unknown.
    public static func fateUnknown(_ reason: String) -> Bool {
        PlainProblem(lines: reason).words.hasPrefix(maybeDelivered)
    }

    /// What leads the reason: "Not sent yet: ", "Not sent: ", or "Maybe sent: ".
    public static func lead(_ state: SendState, reason: String) -> String {
        switch state {
        case .failed: fateUnknown(reason) ? "Maybe sent: " : "Not sent: "
        default: "Not sent yet: "
        }
    }

    /// What happens next and what to do, after the reason. `sendNow` and `cancel` name the ways
    /// to send it again and to make it a draft again on this face (the web app's buttons, the
    /// tool's `vaultmail outbox --retry ID` and `--cancel ID`).
    public static func next(_ state: SendState, reason: String, sendNow: String = "press Send now", cancel: String = "Cancel") -> String {
        switch state {
        case .failed where fateUnknown(reason):
            "VaultMail won't send it again by itself. If it didn't arrive, \(sendNow) to send it again."
        case .failed:
            "VaultMail won't try again by itself: it stays in the Outbox, not sent. Change it (\(cancel) makes it a draft again), "
                + "or \(sendNow) once that is fixed."
        default:
            "It waits in the Outbox, and VaultMail's daemon sends it by itself as soon as the server takes it."
        }
    }

    /// The whole sentence: lead, the reason's words, and what happens next.
    public static func words(_ state: SendState, reason: String, sendNow: String = "press Send now", cancel: String = "Cancel") -> String {
        PlainProblem(lines: reason).led(by: lead(state, reason: reason)).sentence + " "
            + next(state, reason: reason, sendNow: sendNow, cancel: cancel)
    }
}
