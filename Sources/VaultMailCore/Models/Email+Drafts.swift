extension Email {
    /// A message of the user's not sent yet: a draft written here, or one synced from a Drafts
    /// folder. It is shown as a draft and is not one of its conversation's messages (issue 29).
    public var isUnsentDraft: Bool { Self.isUnsentDraft(isDraft: isDraft, sendState: sendState) }

    /// `isUnsentDraft` from an email's stored `isDraft` and `sendState` (the store's thread counts).
    public static func isUnsentDraft(isDraft: Bool, sendState: SendState) -> Bool {
        sendState == .draft || (isDraft && sendState == .none)
    }
}
