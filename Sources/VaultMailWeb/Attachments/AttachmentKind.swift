import Foundation
import VaultMailCore

/// What an attachment is, in words a person reads ("PDF document", "PNG image", "Calendar
/// invitation"): from its MIME type, else its file name's extension; never the raw MIME type.
struct AttachmentKind: Equatable, Sendable {
    /// The words shown on its chip.
    var name: String
    /// A short label for the chip's icon ("PDF", "DOC"); empty for images, which show themselves.
    var badge: String

    /// The image types a browser shows as a thumbnail: raster formats only (never SVG).
    static let previewableTypes: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    /// The largest image shown as a thumbnail: the browser loads all of it to draw 96×72 pixels.
    static let previewLimit = 10 << 20

    /// Whether the attachment is shown as a thumbnail (`/message/{id}/attachment/{a}/preview`).
    static func isPreviewable(_ attachment: Attachment) -> Bool {
        previewableTypes.contains(attachment.mimeType.lowercased()) && attachment.sizeBytes <= previewLimit
    }

    /// Whether the attachment is a calendar invitation (RFC 5545), shown as an event card.
    static func isCalendar(_ attachment: Attachment) -> Bool {
        let type = attachment.mimeType.lowercased()
        return type == "text/calendar" || type == "application/ics" || fileExtension(attachment.filename) == "ics"
    }

    /// The kind of `attachment`.
    static func of(_ attachment: Attachment) -> AttachmentKind {
        of(mimeType: attachment.mimeType, filename: attachment.filename)
    }

    static func of(mimeType: String, filename: String) -> AttachmentKind {
        let type = mimeType.lowercased().split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        let ext = fileExtension(filename)
        if let known = byType[type] ?? byExtension[ext] { return known }
        let family = type.split(separator: "/").first.map(String.init) ?? ""
        switch family {
        case "image": return AttachmentKind(name: ext.isEmpty ? "Image" : "\(ext.uppercased()) image", badge: "")
        case "audio": return AttachmentKind(name: "Audio file", badge: "AUDIO")
        case "video": return AttachmentKind(name: "Video", badge: "VIDEO")
        case "text": return AttachmentKind(name: "Text file", badge: "TXT")
        default:
            // An extension a person would recognise (letters and digits, short), else plain "File".
            let shown = ext.count <= 5 && !ext.isEmpty && ext.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            return shown ? AttachmentKind(name: "\(ext.uppercased()) file", badge: ext.uppercased()) : AttachmentKind(name: "File", badge: "FILE")
        }
    }

    /// The extension of `filename` in lowercase, without the dot; empty when there is none.
    static func fileExtension(_ filename: String) -> String {
        guard let dot = filename.lastIndex(of: "."), dot != filename.startIndex else { return "" }
        return String(filename[filename.index(after: dot)...]).lowercased()
    }

    private static let pdf = AttachmentKind(name: "PDF document", badge: "PDF")
    private static let word = AttachmentKind(name: "Word document", badge: "DOC")
    private static let excel = AttachmentKind(name: "Excel spreadsheet", badge: "XLS")
    private static let powerPoint = AttachmentKind(name: "PowerPoint presentation", badge: "PPT")
    private static let calendar = AttachmentKind(name: "Calendar invitation", badge: "ICS")
    private static let zip = AttachmentKind(name: "ZIP archive", badge: "ZIP")
    private static let text = AttachmentKind(name: "Text file", badge: "TXT")
    private static let csv = AttachmentKind(name: "CSV spreadsheet", badge: "CSV")
    private static let mail = AttachmentKind(name: "Email message", badge: "EML")
    private static let vcard = AttachmentKind(name: "Contact card", badge: "VCF")
    private static let odt = AttachmentKind(name: "OpenDocument text", badge: "ODT")
    private static let ods = AttachmentKind(name: "OpenDocument spreadsheet", badge: "ODS")
    private static let odp = AttachmentKind(name: "OpenDocument presentation", badge: "ODP")
    private static let html = AttachmentKind(name: "Web page", badge: "HTML")

    private static let byType: [String: AttachmentKind] = [
        "application/pdf": pdf,
        "application/msword": word,
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document": word,
        "application/vnd.ms-excel": excel,
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": excel,
        "application/vnd.ms-powerpoint": powerPoint,
        "application/vnd.openxmlformats-officedocument.presentationml.presentation": powerPoint,
        "application/vnd.oasis.opendocument.text": odt,
        "application/vnd.oasis.opendocument.spreadsheet": ods,
        "application/vnd.oasis.opendocument.presentation": odp,
        "text/calendar": calendar, "application/ics": calendar,
        "application/zip": zip, "application/x-zip-compressed": zip,
        "text/plain": text, "text/csv": csv, "text/html": html,
        "message/rfc822": mail,
        "text/vcard": vcard, "text/x-vcard": vcard,
        "image/png": AttachmentKind(name: "PNG image", badge: ""),
        "image/jpeg": AttachmentKind(name: "JPEG image", badge: ""),
        "image/gif": AttachmentKind(name: "GIF image", badge: ""),
        "image/webp": AttachmentKind(name: "WebP image", badge: ""),
        "image/svg+xml": AttachmentKind(name: "SVG image", badge: "SVG"),
    ]

    /// For parts sent as `application/octet-stream`: the extension tells.
    private static let byExtension: [String: AttachmentKind] = [
        "pdf": pdf, "doc": word, "docx": word, "xls": excel, "xlsx": excel, "ppt": powerPoint, "pptx": powerPoint,
        "odt": odt, "ods": ods, "odp": odp, "ics": calendar, "zip": zip, "txt": text, "csv": csv, "eml": mail, "vcf": vcard,
        "html": html, "htm": html,
        "png": AttachmentKind(name: "PNG image", badge: "PNG"), "jpg": AttachmentKind(name: "JPEG image", badge: "JPG"),
        "jpeg": AttachmentKind(name: "JPEG image", badge: "JPG"), "gif": AttachmentKind(name: "GIF image", badge: "GIF"),
    ]
}
