import Foundation
import VaultMailCore
internal import CGMime

/// Reads one GMime message into a `ParsedMessage`. Lives inside one `parse` call: it keeps
/// the message handle, and every pointer it reads from it is "transfer none".
struct MessageReader {
    let message: GObjectHandle<GMimeMessage>
    let options: ParserOptions
    let raw: [UInt8]

    func read() -> ParsedMessage {
        var problems: [String] = []
        let headers = rawHeaders()
        let first: (String) -> String? = { name in headers.first { $0.name == name }?.value }

        let messageId = first("message-id").flatMap(MessageIDs.parseFirst)
        let references = dedupe(first("references").map(MessageIDs.parseList) ?? [])
        // In-Reply-To names the parent last: MH and exmh write `Message from Name <address> of
        // "date" <msg-id>`, whose first bracket is the sender's address (notmuch's fallback
        // parent is the last id too). One id, or an id and a comment, read the same either way.
        let inReplyTo = first("in-reply-to").flatMap { MessageIDs.parseList($0).last }
        if first("message-id") != nil, messageId == nil {
            problems.append("the Message-ID header holds no msg-id; a synthesized id is used")
        }

        var kept: [String: String] = [:]
        for header in headers where ParsedMessage.keptHeaderNames.contains(header.name) && kept[header.name] == nil {
            kept[header.name] = header.value
        }

        var subject = g_mime_message_get_subject(message.pointer).map { String(cString: $0) } ?? ""
        var date: Date?
        var seconds: gint64 = 0
        if cgmime_message_date(message.pointer, &seconds) != 0 {
            date = Date(timeIntervalSince1970: TimeInterval(seconds))
        } else if first("date") != nil {
            problems.append("the Date header could not be read")
        }

        var body = BodyText()
        var attachments: [ParsedAttachment] = []
        var bodyCharset: String?
        let builder = MIMETreeBuilder(options: options)
        // The builder owns entities it re-parsed; the tree points into them.
        withExtendedLifetime(builder) {
            if let root = builder.tree(of: message) {
                let structure = BodyStructure(root: root)
                body = bodyText(structure, problems: &problems)
                let referenced = ContentIDReferences.referenced(in: body.html)
                attachments = structure.attachments.map { attachment($0, referenced: referenced) }
                bodyCharset = (structure.textBody + structure.htmlBody).lazy
                    .compactMap { $0.charset?.lowercased() }
                    .first { !TextDecoder.isUndeclared($0) && $0 != "utf-8" && $0 != "utf8" && !TextDecoder.isSevenBitEncoding($0) }
            }
        }

        var from = addresses(GMIME_ADDRESS_TYPE_FROM)
        var to = addresses(GMIME_ADDRESS_TYPE_TO)
        var cc = addresses(GMIME_ADDRESS_TYPE_CC)
        var bcc = addresses(GMIME_ADDRESS_TYPE_BCC)
        var replyTo = addresses(GMIME_ADDRESS_TYPE_REPLY_TO)
        // Raw 8-bit header text that is not UTF-8 is most likely in the body's charset
        // (as Thunderbird assumes): read those headers again with that charset preferred.
        if let bodyCharset {
            let hinted = ParserOptions(preferring: bodyCharset)
            withExtendedLifetime(hinted) {
                for header in headers where header.needsCharsetGuess {
                    switch header.name {
                    case "subject": subject = Self.decodeText(header.raw, options: hinted)
                    case "from": from = Self.parseAddresses(header.raw, options: hinted)
                    case "to": to = Self.parseAddresses(header.raw, options: hinted)
                    case "cc": cc = Self.parseAddresses(header.raw, options: hinted)
                    case "bcc": bcc = Self.parseAddresses(header.raw, options: hinted)
                    case "reply-to": replyTo = Self.parseAddresses(header.raw, options: hinted)
                    default: break
                    }
                }
            }
        }

        // Encoded-words decoded by us (`EncodedWords`): GMime's address parser cuts a name of two
        // adjacent words short, and garbles a word it cannot read instead of keeping it.
        let words = TextDecoder(options: options)
        var decodedHeaders = Set<String>()
        for header in headers where EncodedWords.contains(header.value) && !header.needsCharsetGuess
            && decodedHeaders.insert(header.name).inserted {
            let quoted = { Self.parseAddresses(Array(EncodedWords.quoted(header.value, decoder: words).utf8), options: self.options) }
            switch header.name {
            case "subject": subject = EncodedWords.decode(header.value, decoder: words)
            case "from": from = quoted()
            case "to": to = quoted()
            case "cc": cc = quoted()
            case "bcc": bcc = quoted()
            case "reply-to": replyTo = quoted()
            default: break
            }
        }

        problems.append(contentsOf: builder.problems)
        problems.append(contentsOf: options.warnings)
        if headers.isEmpty {
            problems.append("the message has no header fields")
        }
        let plain = body.plain.isEmpty ? nil : body.plain.joined(separator: "\n")
        let html = body.html.isEmpty ? nil : body.html.joined(separator: "\n")
        return ParsedMessage(
            messageId: messageId,
            stableMessageId: messageId ?? ParsedMessage.synthesizedMessageId(rawMessage: raw),
            inReplyTo: inReplyTo,
            references: references,
            subject: TextDecoder.tidy(subject),
            from: from,
            to: to,
            cc: cc,
            bcc: bcc,
            replyTo: replyTo,
            date: date,
            textPlain: plain,
            textHTML: html,
            snippet: Snippet.make(plain: plain, html: html),
            attachments: attachments,
            isSpamTagged: Self.isSpamTagged(flag: kept["x-spam-flag"], status: kept["x-spam-status"]),
            keptHeaders: kept,
            // A report (a bounce quoting the message) says nothing of its sender's key (Autocrypt Level 1 §2.3).
            autocryptHeaders: first("content-type")?.lowercased().hasPrefix("multipart/report") == true
                ? [] : headers.filter { $0.name == "autocrypt" }.map(\.value),
            autocryptGossipHeaders: headers.filter { $0.name == "autocrypt-gossip" }.map(\.value),
            problems: problems
        )
    }

    // MARK: Headers

    /// One top-level header field.
    struct Header {
        /// Lowercased name.
        let name: String
        /// The raw value, unfolded and trimmed (invalid UTF-8 shown as U+FFFD).
        let value: String
        /// The raw value's bytes as they stand in the message.
        let raw: [UInt8]

        /// Whether the raw value has 8-bit bytes that are not UTF-8.
        var needsCharsetGuess: Bool {
            raw.contains { $0 >= 0x80 } && String(validating: raw, as: UTF8.self) == nil
        }
    }

    /// Top-level header fields in order.
    private func rawHeaders() -> [Header] {
        guard let list = g_mime_object_get_header_list(cgmime_message_as_object(message.pointer)) else { return [] } // none
        var result: [Header] = []
        let count = max(g_mime_header_list_get_count(list), 0)
        for index in 0..<count {
            guard let header = g_mime_header_list_get_header_at(list, index), // none
                  let name = g_mime_header_get_name(header) else { continue }
            let raw = g_mime_header_get_raw_value(header).map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
            result.append(Header(name: String(cString: name).lowercased(), value: Self.unfold(String(decoding: raw, as: UTF8.self)), raw: raw))
        }
        return result
    }

    /// A header value decoded (RFC 2047, 8-bit fallback) with `options`.
    private static func decodeText(_ raw: [UInt8], options: ParserOptions) -> String {
        var bytes = raw.filter { $0 != 0 }
        bytes.append(0)
        return bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                // (transfer full) a g_malloc'd string, freed here.
                guard let base = chars.baseAddress, let decoded = g_mime_utils_header_decode_text(options.pointer, base) else { return "" }
                defer { g_free(decoded) }
                return unfold(String(cString: decoded))
            }
        }
    }

    /// An address list header parsed with `options`.
    private static func parseAddresses(_ raw: [UInt8], options: ParserOptions) -> [Participant] {
        var bytes = raw.filter { $0 != 0 }
        bytes.append(0)
        let list = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                internet_address_list_parse(options.pointer, chars.baseAddress) // full or NULL
            }
        }
        guard let list else { return [] }
        let handle = GObjectHandle(owning: list)
        var people: [Participant] = []
        collect(handle.pointer, into: &people, depth: 0)
        return people
    }

    static func unfold(_ value: String) -> String {
        // CR and LF never join other characters, so dropping their bytes drops exactly them.
        let bytes = value.utf8.filter { $0 != 0x0D && $0 != 0x0A }
        return String(decoding: bytes, as: UTF8.self).trimming(" \t")
    }

    /// RFC 5322 addresses of one header, names decoded; group members are listed flat.
    private func addresses(_ type: GMimeAddressType) -> [Participant] {
        guard let list = g_mime_message_get_addresses(message.pointer, type) else { return [] } // none
        var people: [Participant] = []
        Self.collect(list, into: &people, depth: 0)
        return people
    }

    private static func collect(_ list: UnsafeMutablePointer<InternetAddressList>, into people: inout [Participant], depth: Int) {
        let count = max(internet_address_list_length(list), 0)
        for index in 0..<count {
            guard let address = internet_address_list_get_address(list, index) else { continue } // none
            if let mailbox = cgmime_as_mailbox(address) {
                let name = internet_address_get_name(address).map { TextDecoder.tidy(String(cString: $0)).trimming(" \t") }
                let email = internet_address_mailbox_get_addr(mailbox).map { String(cString: $0) } ?? ""
                if (name ?? "").isEmpty, email.isEmpty { continue }
                people.append(Participant(name: (name ?? "").isEmpty ? nil : name, email: email))
            } else if let group = cgmime_as_group(address), depth < 4,
                      let members = internet_address_group_get_members(group) { // none
                collect(members, into: &people, depth: depth + 1)
            }
        }
    }

    static func isSpamTagged(flag: String?, status: String?) -> Bool {
        if let flag, flag.trimming(" \t").lowercased().hasPrefix("yes") { return true }
        if let status, status.trimming(" \t").lowercased().hasPrefix("yes") { return true }
        return false
    }

    private func dedupe(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }
    }

    // MARK: Bodies and attachments

    private struct BodyText {
        var plain: [String] = []
        var html: [String] = []
    }

    private func bodyText(_ structure: BodyStructure, problems: inout [String]) -> BodyText {
        let decoder = TextDecoder(options: options)
        var body = BodyText()
        func text(of part: MIMEPart) -> String {
            let (text, problem) = decoder.decode(part.decodedContent(), charset: part.charset)
            if let problem, !problems.contains(problem) { problems.append(problem) }
            return text
        }
        for part in structure.textBody where part.mimeType == "text/plain" {
            body.plain.append(text(of: part))
        }
        for part in structure.htmlBody where part.mimeType == "text/html" {
            body.html.append(text(of: part))
        }
        return body
    }

    /// One part of `BodyStructure.attachments`. `isInline` (shown in the body, not listed) only
    /// for an image the HTML body shows by its Content-ID, whatever its disposition says, as
    /// Thunderbird and Gmail do; every other part is listed: an attached or forwarded message,
    /// delivery-status and returned headers of a report, an inline image no HTML refers to, a
    /// part named only by `name=`. See "Attachments" in docs/mime-and-threading.md.
    private func attachment(_ part: MIMEPart, referenced: Set<String>) -> ParsedAttachment {
        let isInline = part.type == "image"
            && part.contentId.map { referenced.contains(ContentIDReferences.normalized($0)) } == true
        return ParsedAttachment(
            filename: part.filename.map(TextDecoder.tidy),
            mimeType: part.mimeType,
            size: part.decodedSize(),
            contentId: part.contentId,
            isInline: isInline,
            partId: part.partId,
            embeddedSubject: part.type == "message" ? part.embeddedSubject() : nil
        )
    }
}
