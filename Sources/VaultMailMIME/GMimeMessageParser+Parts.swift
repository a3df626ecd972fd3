import VaultMailCore
internal import CGMime

/// `MessagePartReader` over the same GMime reading as `parse`: the same parser options, the
/// same mbox-separator and header handling, and the same part tree (`MIMETreeBuilder`,
/// including the parts salvaged from a multipart whose boundary is wrong), so every
/// `ParsedAttachment.partId` that `parse` reports names the same part here, and the content
/// returned has exactly `ParsedAttachment.size` bytes.
///
/// Numbering is IMAP's (RFC 3501 §6.4.5): "1", "2.3"; a message that is not multipart has
/// only part "1". An attached message comes back whole as GMime writes it (the same headers
/// and content, LF line ends); a multipart part gives its body (boundaries included).
extension GMimeMessageParser: MessagePartReader {
    public func content(ofPart partId: String, in raw: [UInt8]) -> [UInt8]? {
        guard Self.isPartNumber(partId) else { return nil }
        return Self.withMessage(in: raw) { message, options in
            guard case .success(let message) = message else { return nil }
            let builder = MIMETreeBuilder(options: options)
            // The builder owns entities it re-parsed; the tree points into them.
            return withExtendedLifetime(builder) {
                builder.tree(of: message)?.part(numbered: partId)?.downloadContent()
            }
        }
    }

    /// Whether `partId` is written as the parser writes part numbers: positive decimal
    /// numbers without leading zeros, joined by dots. Anything else names no part, and is
    /// turned away before the message is read.
    static func isPartNumber(_ partId: String) -> Bool {
        let numbers = partId.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return !partId.isEmpty && numbers.allSatisfy { number in
            !number.isEmpty && number.first != UInt8(ascii: "0")
                && number.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
    }
}
