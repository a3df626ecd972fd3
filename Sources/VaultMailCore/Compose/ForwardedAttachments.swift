import Foundation

/// What a forward of a conversation carries (issue 29): the attachments of every message up to
/// the one forwarded, and the ones it leaves out, each with the reason in plain words.
public struct ForwardedAttachments: Sendable, Hashable {
    /// A file the forward does not carry, and why.
    public struct LeftOut: Sendable, Hashable {
        public var attachment: Attachment
        public var reason: String

        public init(attachment: Attachment, reason: String) {
            self.attachment = attachment
            self.reason = reason
        }
    }

    /// The files carried, in the conversation's order (each file once).
    public var carried: [Attachment]
    public var leftOut: [LeftOut]

    public init(carried: [Attachment] = [], leftOut: [LeftOut] = []) {
        self.carried = carried
        self.leftOut = leftOut
    }

    /// One sentence naming what is left out and why; nil when everything is carried.
    public var notice: String? {
        guard !leftOut.isEmpty else { return nil }
        let named = leftOut.map { "‘\($0.attachment.filename)’ (\(ByteSize.string($0.attachment.sizeBytes))): \($0.reason)" }
        return "Not forwarded: " + named.joined(separator: "; ") + "."
    }
}
