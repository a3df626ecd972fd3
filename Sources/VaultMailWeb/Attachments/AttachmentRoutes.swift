import Foundation
import HTTPTypes
import Hummingbird
import VaultMailCore

extension WebApp {
    /// `/message/{id}/attachment/{attachment}/preview`: an image attachment for its thumbnail
    /// (raster types only, never rendered as a document). `/message/{id}/attachments.zip`: every
    /// attachment the message lists, in one ZIP ("Download all"). Downloads of one attachment
    /// are `addMessageRoutes`'.
    func addAttachmentRoutes(to router: Router<WebRequestContext>) {
        router.get("/message/{id}/attachment/{attachment}/preview") { _, context -> Response in
            guard let id = context.parameters.get("id"), let attachmentId = context.parameters.get("attachment") else {
                return Pages.plain(.notFound, "No such attachment.")
            }
            let content: AttachmentContent
            do {
                content = try await self.mail.attachments.content(emailId: id, attachmentId: attachmentId)
            } catch let error as AttachmentError {
                return Pages.plain(error.isNotFound ? .notFound : .internalServerError, PlainWords.lines(error))
            }
            guard AttachmentKind.isPreviewable(content.attachment) else {
                return Pages.plain(.unsupportedMediaType, "'\(content.attachment.filename)' is not an image that can be previewed; download it instead.")
            }
            var response = Response(status: .ok, headers: [:], body: ResponseBody(byteBuffer: ByteBuffer(bytes: content.data)))
            response.headers[.contentType] = content.attachment.mimeType.lowercased()
            response.headers[.contentSecurityPolicy] = "default-src 'none'; sandbox"
            // An attachment never changes under its id.
            response.headers[.cacheControl] = "private, max-age=3600"
            return response
        }
        router.get("/message/{id}/attachments.zip") { _, context -> Response in
            guard let id = context.parameters.get("id"), let email = try? await self.mail.mailboxes.email(id: id) else {
                return Pages.plain(.notFound, "This message no longer exists.")
            }
            let all = (try? await self.mail.mailboxes.attachments(emailId: id)) ?? []
            let referenced = email.bodyHTML.map { self.sanitized.outline(emailId: id, html: $0).contentIds } ?? []
            let listed = AttachmentsView.listed(all, referenced: referenced)
            guard !listed.isEmpty else { return Pages.plain(.notFound, "This message has no attachments.") }
            let archive: [UInt8]
            do {
                var files: [ZipArchive.File] = []
                for attachment in listed {
                    let content = try await self.mail.attachments.content(emailId: id, attachmentId: attachment.id)
                    files.append(ZipArchive.File(name: attachment.filename, data: content.data, modified: email.dateSent ?? email.dateReceived))
                }
                archive = try ZipArchive.make(files)
            } catch let error as AttachmentError {
                return Pages.plain(error.isNotFound ? .notFound : .internalServerError, PlainWords.lines(error))
            } catch {
                return Pages.plain(.internalServerError, PlainWords.lines(error))
            }
            let subject = email.subject.trimmingCharacters(in: .whitespacesAndNewlines)
            var response = Response(status: .ok, headers: [:], body: ResponseBody(byteBuffer: ByteBuffer(bytes: archive)))
            response.headers[.contentType] = "application/zip"
            response.headers[.contentDisposition] = Self.disposition(filename: "\(subject.isEmpty ? "Attachments" : String(subject.prefix(80))).zip")
            response.headers[.contentSecurityPolicy] = "default-src 'none'; sandbox"
            response.headers[.cacheControl] = "private, no-store"
            return response
        }
    }
}
