/// The link between an email and a folder it sits in, carrying the message's IMAP UID
/// in that folder. The same message in two folders is one `Email` with two links.
public struct EmailFolder: Sendable, Codable, Hashable {
    public var emailId: String
    public var folderId: String
    /// `nil` until the server has told us the UID (e.g. right after a local move).
    public var uid: UInt32?

    public init(emailId: String, folderId: String, uid: UInt32? = nil) {
        self.emailId = emailId
        self.folderId = folderId
        self.uid = uid
    }
}
