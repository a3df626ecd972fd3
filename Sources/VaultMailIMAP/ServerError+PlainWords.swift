import VaultMailCore

/// What went wrong with the server in a person's words (issue 29): the host without its port,
/// what happened and what to do. A server that cannot be reached is said as such, never as a
/// TLS problem; a TLS problem stays one.
extension ServerError: PlainWordsError {
    /// The words where VaultMail tries again by itself (a sync, the daemon, a send queued).
    public var plainWords: String { plainWords(retrying: true) }

    /// The words; `retrying` false where the user is trying it now ("Test connection"): an
    /// unreachable server is then said with what to check instead of a retry.
    public func plainWords(retrying: Bool) -> String {
        if let failure = connectionFailure {
            return switch failure {
            case .connectionFailed, .timedOut, .connectionLost: PlainWords.unreachable(host, retrying: retrying)
            case .tlsFailed:
                "Can't make a secure connection to \(host). Check the account's security setting (TLS or STARTTLS) and port."
            case .certificateRejected:
                "\(host)'s certificate isn't trusted, so nothing was sent to it. If you trust it, add its CA certificate in the account's settings."
            case .plaintextRefused: "VaultMail won't send your password to \(host) unencrypted. Choose TLS or STARTTLS."
            }
        }
        if isLoginRefused { return "\(host) refused the sign-in\(user.map { " for \($0)" } ?? ""). Check the password in the account's settings." }
        switch kind.rawValue {
        case "authenticationFailed": return "\(host) can't sign you in right now. VaultMail will try again."
        case "commandFailed", "rejected", "temporaryFailure":
            let words = serverResponse.map { ": “\($0)”" } ?? "."
            return "\(host) refused\(words)"
        case "unsupported": return "\(host) doesn't support what this needs."
        default: return "\(host) answered in a way VaultMail didn't understand. Try again."
        }
    }
}
