/// A conversation as it was opened: its thread and its messages, oldest first, as they were
/// before opening marked them read (so a face can show which were new).
public struct Conversation: Sendable {
    public var thread: EmailThread
    /// Oldest first by arrival; messages that arrived in the same second by when they were
    /// written, then as the store gave them (`Conversations.ordered`).
    public var messages: [Email]
    /// Marking the conversation read because it was opened, on the server first; nil when
    /// nothing was to be marked (no unread mail, or the user turned mark-read-on-open off).
    /// Its value is the failure, if any. The tool waits for it; the web page is shown at once.
    public var markingRead: Task<ThreadListError?, Never>?
    /// The OpenPGP state of each encrypted or signed message, by email id (issue 32). Such a
    /// message in `messages` carries its decrypted text and real subject, for showing only: it
    /// is never written back to the store.
    public var crypto: [String: OpenedCrypto] = [:]
    /// How many older messages were left out of `messages` (a conversation read a page at a
    /// time, E-06); 0 when it holds them all.
    public var olderCount = 0

    public init(thread: EmailThread, messages: [Email], markingRead: Task<ThreadListError?, Never>? = nil) {
        self.thread = thread
        self.messages = messages
        self.markingRead = markingRead
    }
}
