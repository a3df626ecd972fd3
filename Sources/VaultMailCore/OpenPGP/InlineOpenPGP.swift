/// Inline PGP (issue 32): an ASCII-armored OpenPGP block in a message's plain text, with the
/// text around it.
public struct InlineOpenPGP: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// `-----BEGIN PGP MESSAGE-----` … `-----END PGP MESSAGE-----`: an encrypted (or signed
        /// and armored) OpenPGP message.
        case message
        /// `-----BEGIN PGP SIGNED MESSAGE-----` … `-----END PGP SIGNATURE-----`: cleartext signed.
        case cleartextSigned
    }

    public var kind: Kind
    /// The text before the block and after it (usually empty, or a greeting and a footer).
    public var before: String
    public var after: String
    /// The armored block itself, both armor lines included.
    public var block: String

    static let messageBegin = "-----BEGIN PGP MESSAGE-----"
    static let messageEnd = "-----END PGP MESSAGE-----"
    static let signedBegin = "-----BEGIN PGP SIGNED MESSAGE-----"
    static let signatureEnd = "-----END PGP SIGNATURE-----"

    /// Whether `text` may hold an inline block (a quick look, before reading the message).
    public static func mayContain(_ text: String?) -> Bool {
        text?.contains("-----BEGIN PGP ") ?? false
    }

    /// The first armored block of `text` that begins at the start of a line, or nil.
    public static func find(in text: String) -> InlineOpenPGP? {
        for (kind, begin, end) in [(Kind.cleartextSigned, signedBegin, signatureEnd), (Kind.message, messageBegin, messageEnd)] {
            guard let start = lineStart(of: begin, in: text),
                  let stop = text.range(of: end, range: start.upperBound..<text.endIndex) else { continue }
            return InlineOpenPGP(kind: kind, before: String(text[..<start.lowerBound]), after: String(text[stop.upperBound...]),
                                 block: String(text[start.lowerBound..<stop.upperBound]) + "\n")
        }
        return nil
    }

    /// The text with the block replaced by `inner`.
    public func replacingBlock(with inner: String) -> String {
        before + inner + after
    }

    /// The first occurrence of `marker` at the start of a line.
    private static func lineStart(of marker: String, in text: String) -> Range<String.Index>? {
        var from = text.startIndex
        while let found = text.range(of: marker, range: from..<text.endIndex) {
            if found.lowerBound == text.startIndex || text[text.index(before: found.lowerBound)].isNewline { return found }
            from = found.upperBound
        }
        return nil
    }
}
