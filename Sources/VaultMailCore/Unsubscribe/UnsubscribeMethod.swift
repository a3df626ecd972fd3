import Foundation

/// The one way VaultMail unsubscribes from a message (`ListUnsubscribe.method`).
public enum UnsubscribeMethod: Sendable, Hashable {
    /// POST `List-Unsubscribe=One-Click` to this https URL (RFC 8058 §3.1).
    case oneClick(URL)
    /// Send the mail this mailto: URI names.
    case mail(MailtoURI)
    /// Neither; why, in words.
    case notOffered(reason: String)

    /// What the action does, for the confirmation ("Sends a one-click request to example.com").
    public var summary: String {
        switch self {
        case .oneClick(let url): "Sends a one-click request to \(url.host ?? url.absoluteString)"
        case .mail(let mailto): "Sends an email to \(mailto.to.joined(separator: ", "))"
        case .notOffered(let reason): "Unsubscribing is not offered: \(reason)"
        }
    }

    /// "one-click", "mail", or "none" (JSON, records).
    public var kind: String {
        switch self {
        case .oneClick: "one-click"
        case .mail: "mail"
        case .notOffered: "none"
        }
    }
}
