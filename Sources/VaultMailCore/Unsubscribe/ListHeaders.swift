import Foundation

/// The list headers of one email, as written (unfolded).
public struct ListHeaders: Sendable, Hashable {
    /// The List-Id's identifier, lowercased ("news.example.com"), nil without one.
    public var listId: String?
    /// The List-Id's name, the words before its identifier ("Example News"), nil without one
    /// (or when it is encoded, `=?…?=`).
    public var listName: String?
    public var listUnsubscribe: String?
    public var listUnsubscribePost: String?

    public init(listId: String?, listName: String? = nil, listUnsubscribe: String?, listUnsubscribePost: String?) {
        self.listId = listId
        self.listName = listName
        self.listUnsubscribe = listUnsubscribe
        self.listUnsubscribePost = listUnsubscribePost
    }

    /// The name of a List-Id value: what comes before `<`, without quotes; nil when empty or encoded.
    static func listName(_ value: String) -> String? {
        guard let open = value.firstIndex(of: "<") else { return nil }
        var name = value[..<open].trimmingCharacters(in: .whitespaces)
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") { name = String(name.dropFirst().dropLast()) }
        guard !name.isEmpty, !name.contains("=?") else { return nil }
        return String(name.prefix(200))
    }

    /// The headers VaultMail keeps from a message's header fields (`MessageHeaderFields`); nil without any.
    public init?(fields: [String: String]) {
        let listId = fields["list-id"].flatMap(CategorySignals.listIdentifier).map { $0.lowercased() }
        let unsubscribe = fields["list-unsubscribe"]
        guard listId != nil || unsubscribe != nil else { return nil }
        self.init(listId: listId, listName: fields["list-id"].flatMap(Self.listName), listUnsubscribe: unsubscribe,
                  listUnsubscribePost: fields["list-unsubscribe-post"])
    }

    /// What the headers offer; `.notOffered` when there is no List-Unsubscribe or it is malformed.
    public var method: UnsubscribeMethod {
        guard let listUnsubscribe else {
            return .notOffered(reason: "the message has no List-Unsubscribe header")
        }
        do {
            return try ListUnsubscribe.parse(listUnsubscribe: listUnsubscribe, listUnsubscribePost: listUnsubscribePost).method
        } catch {
            return .notOffered(reason: "\(error)")
        }
    }

    /// Whom unsubscribing leaves, in words: the List-Id's name ("Example News", "Developers"),
    /// else the sender's name (else address) when the list is in the sender's domain (a
    /// newsletter), else the list's identifier (a discussion list, whose mail comes from many people).
    public func name(senderName: String?, senderAddress: String) -> String {
        if let listName { return listName }
        let sender = senderName.flatMap { $0.isEmpty ? nil : $0 } ?? senderAddress
        guard let listId else { return sender }
        let domain = senderAddress.split(separator: "@").last.map { $0.lowercased() } ?? ""
        if !domain.isEmpty, listId == domain || listId.hasSuffix("." + domain) || domain.hasSuffix("." + listId) { return sender }
        return listId
    }

    /// Whom the person unsubscribes from: the list (`list:<List-Id>`), else the sender's address, lowercased.
    public func senderKey(fromAddress: String) -> String {
        listId.map { "list:" + $0 } ?? fromAddress.lowercased()
    }
}
