/// Which parts of a message are its text body, its HTML body and its attachments, chosen as
/// RFC 8621 §4.1.4 (JMAP's `parseStructure`) chooses them, the rule Stalwart, Fastmail and
/// Cyrus share: multipart/alternative picks its text/plain part for the text body and its
/// text/html part for the HTML body (each standing in for the other when missing); in
/// multipart/related only the first part is body; a part marked `attachment`, a named text
/// part after the first, or any other type is an attachment; inline images in a mixed body
/// belong to the body and to the attachments.
/// One change from the RFC, shared with Stalwart: inline media are always listed as attachments.
struct BodyStructure {
    private(set) var textBody: [MIMEPart] = []
    private(set) var htmlBody: [MIMEPart] = []
    private(set) var attachments: [MIMEPart] = []

    init(root: MIMEPart) {
        walk([root], multipartType: "mixed", inAlternative: false, textActive: true, htmlActive: true)
    }

    private mutating func walk(
        _ parts: [MIMEPart], multipartType: String, inAlternative: Bool, textActive: Bool, htmlActive: Bool
    ) {
        var textActive = textActive
        var htmlActive = htmlActive
        let textLength = textActive ? textBody.count : -1
        let htmlLength = htmlActive ? htmlBody.count : -1

        for (index, part) in parts.enumerated() {
            let mimeType = part.mimeType
            let isBodyType = mimeType == "text/plain" || mimeType == "text/html" || part.isInlineMedia
            let isInline = part.disposition != "attachment" && isBodyType
                && (index == 0 || (multipartType != "related" && (part.isInlineMedia || part.filename == nil)))

            if part.isMultipart {
                walk(
                    part.children, multipartType: part.subtype,
                    inAlternative: inAlternative || part.subtype == "alternative",
                    textActive: textActive, htmlActive: htmlActive
                )
            } else if isInline {
                if multipartType == "alternative" {
                    switch mimeType {
                    case "text/plain": if textActive { textBody.append(part) }
                    case "text/html": if htmlActive { htmlBody.append(part) }
                    default: attachments.append(part)
                    }
                    continue
                } else if inAlternative {
                    if mimeType == "text/plain" { htmlActive = false }
                    if mimeType == "text/html" { textActive = false }
                }
                if textActive { textBody.append(part) }
                if htmlActive { htmlBody.append(part) }
                // RFC 8621 lists inline media as attachments only when one body lacks them;
                // like Stalwart, list them always: a text view cannot show them inline.
                if part.isInlineMedia { attachments.append(part) }
            } else {
                attachments.append(part)
            }
        }

        if multipartType == "alternative", textActive, htmlActive {
            // Only HTML was found: it stands in for the text body too, and the other way round.
            if textLength == textBody.count, htmlLength != htmlBody.count, htmlLength >= 0 {
                textBody.append(contentsOf: htmlBody[htmlLength...])
            }
            if htmlLength == htmlBody.count, textLength != textBody.count, textLength >= 0 {
                htmlBody.append(contentsOf: textBody[textLength...])
            }
        }
    }
}
