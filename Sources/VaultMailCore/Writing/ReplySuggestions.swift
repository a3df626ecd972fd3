import Foundation

/// What a suggested reply does (AC-A-05).
public enum ReplyIntent: String, Sendable, Codable, Hashable, CaseIterable {
    /// Says yes to what the message asks.
    case accept
    /// Says no, politely.
    case decline
    /// Proposes something else (another time, another way).
    case alternative
    /// Thanks or confirms receipt, for a message that asks nothing.
    case acknowledge
    /// Asks for what is missing.
    case question
}

/// Where suggestions came from.
public enum ReplySuggestionSource: String, Sendable, Codable, Hashable {
    /// The on-device generative model wrote them.
    case model
    /// The user's own past replies to messages like this one (no generative model installed).
    case pastReplies
    /// None could be made; `ReplySuggestions.notice` says why and what to do.
    case none
}

/// One short reply, ready to put in the composer.
public struct ReplySuggestion: Sendable, Codable, Hashable {
    public var text: String
    public var intent: ReplyIntent

    public init(text: String, intent: ReplyIntent) {
        self.text = text
        self.intent = intent
    }
}

/// Up to three replies to the latest message of a conversation.
public struct ReplySuggestions: Sendable, Codable, Hashable {
    public var threadId: String
    /// The message replied to: the conversation's latest one not sent by the user.
    public var emailId: String?
    /// The message's language (ISO 639-1, "en"), as detected; replies are written in it.
    public var language: String?
    public var source: ReplySuggestionSource
    public var suggestions: [ReplySuggestion]
    /// Said to the user when there are none or they are a fallback ("Download a model to enable …").
    public var notice: String?

    public init(threadId: String, emailId: String?, language: String?, source: ReplySuggestionSource,
                suggestions: [ReplySuggestion], notice: String? = nil) {
        self.threadId = threadId
        self.emailId = emailId
        self.language = language
        self.source = source
        self.suggestions = suggestions
        self.notice = notice
    }
}
