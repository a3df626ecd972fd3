/// Remote images in mail (they tell the sender when and where a message was read).
public enum RemoteImagePolicy: String, Sendable, CaseIterable {
    /// Never loaded.
    case never
    /// Blocked, with a button to load them for one message or always for its sender.
    case ask
    /// Loaded for senders the user wrote to or trusted; asked for everyone else.
    case knownSenders = "known-senders"
}

/// The web app's colours.
public enum Theme: String, Sendable, CaseIterable {
    case system, light, dark
}

/// What shows after a conversation is archived, deleted or moved from the reading pane (issue 29).
public enum AfterTriage: String, Sendable, CaseIterable {
    /// The next newer conversation of the list (the one above).
    case newer
    /// The next older conversation of the list (the one below).
    case older
    /// The list, with the place kept.
    case list
}

/// How much room each row of the thread list takes.
public enum ListDensity: String, Sendable, CaseIterable {
    case comfortable, compact
}
