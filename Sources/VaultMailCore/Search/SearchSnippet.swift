/// A piece of a matching message's text with the words that matched marked, for a result row.
public struct SearchSnippet: Sendable, Hashable {
    public struct Segment: Sendable, Hashable {
        public var text: String
        public var isMatch: Bool

        public init(text: String, isMatch: Bool) {
            self.text = text
            self.isMatch = isMatch
        }
    }

    public var segments: [Segment]

    public init(segments: [Segment]) {
        self.segments = segments
    }

    /// Marks a store puts around matched words in the text it returns.
    public static let openMark: Character = "\u{1}"
    public static let closeMark: Character = "\u{2}"

    /// Reads text whose matches sit between `openMark` and `closeMark`; whitespace runs
    /// (line breaks too) become single spaces.
    public init(marked: String) {
        var segments: [Segment] = []
        var current = ""
        var inMatch = false
        var lastWasSpace = false
        func flush() {
            if !current.isEmpty { segments.append(Segment(text: current, isMatch: inMatch)) }
            current = ""
        }
        for character in marked {
            if character == Self.openMark || character == Self.closeMark {
                flush()
                inMatch = character == Self.openMark
            } else if character.isWhitespace {
                if !lastWasSpace { current.append(" ") }
                lastWasSpace = true
            } else {
                current.append(character)
                lastWasSpace = false
            }
        }
        flush()
        self.segments = segments
    }

    /// The text without marks.
    public var text: String { segments.map(\.text).joined() }

    public var hasMatch: Bool { segments.contains(where: \.isMatch) }

    /// The text with each match wrapped by `wrap` (bold on a terminal, `<mark>` in HTML).
    public func rendered(plain: (String) -> String = { $0 }, match wrap: (String) -> String) -> String {
        segments.map { $0.isMatch ? wrap($0.text) : plain($0.text) }.joined()
    }
}
