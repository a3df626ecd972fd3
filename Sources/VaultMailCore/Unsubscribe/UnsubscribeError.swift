/// Why a message cannot be unsubscribed from, or why its headers cannot be read, with what to do.
public enum UnsubscribeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The List-Unsubscribe header is not a comma-separated list of `<URI>`s (RFC 2369 §2).
    case malformedHeader(value: String, reason: String)
    /// A mailto: URI that names no address to write to, or one that cannot be written into a message.
    case malformedMailto(uri: String, reason: String)
    /// The message has no List-Unsubscribe header, or none VaultMail may act on.
    case notOffered(reason: String)
    /// No email or conversation with this id is stored.
    case notFound(id: String)

    public var description: String {
        switch self {
        case .malformedHeader(let value, let reason):
            "the List-Unsubscribe header \"\(value.prefix(200))\" cannot be read: \(reason); "
                + "it should be a comma-separated list of <https://…> or <mailto:…> addresses (RFC 2369)"
        case .malformedMailto(let uri, let reason):
            "the unsubscribe address \(uri.prefix(200)) cannot be used: \(reason)"
        case .notOffered(let reason):
            "unsubscribing is not offered: \(reason)"
        case .notFound(let id):
            "no email or conversation with id \(id); `vaultmail threads` lists them"
        }
    }
}
