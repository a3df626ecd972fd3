/// What a composer starts from: nothing, an answer to one message (to its sender or to
/// everyone on it), a forward of it, or a draft saved before.
public enum ComposeKind: String, Sendable, CaseIterable {
    case new
    case reply
    case replyAll = "reply-all"
    case forward
    case draft
}
