import Foundation
import VaultMailCore
internal import CGMime

/// `MessageParser` over GMime 3.
///
/// Headers come out decoded (RFC 2047 words, including broken and mixed ones; RFC 2231
/// parameters; undeclared 8-bit text read as UTF-8, else windows-1252), bodies with their
/// transfer encoding and charset undone, the text/HTML/attachment split as RFC 8621 §4.1.4
/// makes it. It never fails: what GMime cannot read becomes a sentence in `problems`, and a
/// message with no readable structure keeps its raw text as the plain body.
///
/// Thread safety: each call builds its own GMime objects and frees them before returning;
/// GMime's shared state (type registry, charset tables, iconv cache) is set up once by
/// `GMimeRuntime` and locked by GMime where it changes.
public struct GMimeMessageParser: MessageParser {
    public init() {}

    public func parse(_ raw: [UInt8]) -> ParsedMessage {
        Self.withMessage(in: raw) { message, options in
            switch message {
            case .success(let message): MessageReader(message: message, options: options, raw: raw).read()
            case .failure(let error): Self.unreadable(raw, options: options, reason: error.description)
            }
        }
    }

    /// Reads `raw` the one way every caller reads it (a leading mbox "From " line dropped,
    /// header repairs, the same parser options) and hands the message, or why there is none,
    /// to `body` together with the options it was parsed with. The message and the options
    /// live until `body` returns; nothing parsed may outlive that.
    static func withMessage<T>(
        in raw: [UInt8],
        _ body: (Result<GObjectHandle<GMimeMessage>, MIMEError>, ParserOptions) -> T
    ) -> T {
        let options = ParserOptions()
        // Everything parsed with `options` must be gone before it is freed (see ParserOptions).
        return withExtendedLifetime(options) {
            let start = HeaderRepair.skippingLeadingJunk(Self.withoutMboxSeparator(HeaderRepair.skippingLeadingJunk(raw[...])))
            let input = HeaderRepair.escapingEightBitInEncodedWords(start)
            return body(Result { () throws(MIMEError) in try Self.construct(input, options: options) }, options)
        }
    }

    /// The message GMime reads from `bytes`.
    private static func construct(_ bytes: ArraySlice<UInt8>, options: ParserOptions) throws(MIMEError) -> GObjectHandle<GMimeMessage> {
        guard !bytes.isEmpty else { throw MIMEError(description: "the message is empty") }
        let pointer = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                // (transfer full) NULL when GMime finds no message at all.
                cgmime_parse_message(chars.baseAddress, chars.count, options.pointer)
            }
        }
        return GObjectHandle(owning: try check(pointer, "GMime found no message in these \(bytes.count) bytes"))
    }

    /// A message with no structure GMime could read: its raw text as the body, and why.
    private static func unreadable(_ raw: [UInt8], options: ParserOptions, reason: String) -> ParsedMessage {
        let text = TextDecoder(options: options).decode(raw, charset: nil).text
        let body = text.isEmpty ? nil : text
        return ParsedMessage(
            stableMessageId: ParsedMessage.synthesizedMessageId(rawMessage: raw),
            textPlain: body,
            snippet: Snippet.make(plain: body, html: nil),
            problems: ["could not read the message structure (\(reason)); its raw text is shown as the body"]
                + options.warnings
        )
    }

    /// `raw` without a leading mbox "From " line, which is a mailbox separator, not a header.
    static func withoutMboxSeparator(_ raw: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let prefix: [UInt8] = Array("From ".utf8)
        guard raw.count > prefix.count, raw.prefix(prefix.count).elementsEqual(prefix),
              let newline = raw.firstIndex(of: 0x0A) else { return raw }
        return raw[(newline + 1)...]
    }
}
