import Foundation
import HTTPTypes
import Hummingbird
import VaultMailCore

extension WebApp {
    /// `/message/{id}/body`: a message's HTML, sanitized, as the document of its sandboxed frame
    /// (`MessageFrame`; its own CSP: only our height script, nothing fetched but images the user
    /// allowed; `cid:` images come from the store as data: URIs). `/message/{id}/attachment/{attachment}`: a download.
    func addMessageRoutes(to router: Router<WebRequestContext>) {
        router.get("/message/{id}/body") { request, context -> Response in
            guard let id = context.parameters.get("id"), let email = try? await self.mail.mailboxes.email(id: id) else {
                return Pages.plain(.notFound, "This message no longer exists.")
            }
            let asked = try request.query(MailQuery.self).images == "1"
            let remote = await self.mail.preferences.remoteImagesAllowed(from: email.fromAddress, asked: asked)
            let body: Markup
            if let html = email.bodyHTML {
                body = Markup(sanitized: await self.sanitized.frame(emailId: id, html: html, remoteImages: remote,
                                                                    imageSource: self.proxiedImageSource(emailId: id)) {
                    await self.inlineImages(email)
                })
            } else {
                body = PlainTextRenderer.render(email.bodyPlain ?? "")
            }
            var response = Pages.html(MessageFrame.document(body))
            response.headers[.contentSecurityPolicy] = SecurityHeaders.messagePolicy(
                remoteImages: remote ? (self.mail.privacy?.images != nil ? .throughDaemon : .direct) : .none)
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.get("/message/{id}/image") { request, context -> Response in
            let query = try request.query(ImageQuery.self)
            guard let id = context.parameters.get("id"), let address = query.u, let signature = query.s,
                  self.secret.isSignature(signature, of: Self.imageSigned(emailId: id, address: address)) else {
                return Pages.plain(.forbidden, "Refused: this image was not asked for by a message VaultMail shows with its images.")
            }
            guard let images = self.mail.privacy?.images else { return Pages.plain(.notFound, "Remote images are not fetched here.") }
            let image: RemoteImage
            do throws(RemoteImageError) {
                image = try await images.image(address)
            } catch {
                return Pages.plain(error.isRefusal ? .forbidden : .badGateway, error.description)
            }
            var response = Response(status: .ok, headers: [:], body: ResponseBody(byteBuffer: ByteBuffer(bytes: image.data)))
            response.headers[.contentType] = image.contentType
            response.headers[.contentSecurityPolicy] = "default-src 'none'; sandbox"
            // Asked for by the message's sandboxed frame, an opaque origin: "same-origin" would
            // block it there. The signature, not the origin, is this route's proof.
            response.headers[.crossOriginResourcePolicy] = "cross-origin"
            response.headers[.cacheControl] = "private, max-age=86400"
            return response
        }
        router.get("/message/{id}/attachment/{attachment}") { _, context -> Response in
            guard let id = context.parameters.get("id"), let attachmentId = context.parameters.get("attachment") else {
                return Pages.plain(.notFound, "No such attachment.")
            }
            let content: AttachmentContent
            do {
                content = try await self.mail.attachments.content(emailId: id, attachmentId: attachmentId)
            } catch let error as AttachmentError {
                return Pages.plain(error.isNotFound ? .notFound : .internalServerError, PlainWords.lines(error))
            }
            var response = Response(status: .ok, headers: [:], body: ResponseBody(byteBuffer: ByteBuffer(bytes: content.data)))
            response.headers[.contentType] = Self.downloadType(content.attachment.mimeType)
            response.headers[.contentDisposition] = Self.disposition(filename: content.attachment.filename)
            // Never rendered in our origin, whatever it claims to be.
            response.headers[.contentSecurityPolicy] = "default-src 'none'; sandbox"
            response.headers[.cacheControl] = "private, no-store"
            return response
        }
    }

    /// Where the frame of message `emailId` asks for each remote image it may show: the daemon's
    /// image proxy (`RemoteImages`, issue 30), at an address signed for this message and this
    /// image only, so the proxy fetches nothing a message shown with its images did not name.
    /// Nil without a proxy (the browser then fetches them itself).
    func proxiedImageSource(emailId: String) -> (@Sendable (String) -> String)? {
        guard mail.privacy?.images != nil else { return nil }
        let secret = self.secret
        return { address in
            "/message/\(Self.queryValue(emailId))/image?u=\(Self.queryValue(address))&s=\(secret.sign(Self.imageSigned(emailId: emailId, address: address)))"
        }
    }

    /// What an image address's signature covers.
    static func imageSigned(emailId: String, address: String) -> String {
        "remote-image\n\(emailId)\n\(address)"
    }

    /// `text` percent-encoded for a path segment or a query value.
    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
    }

    /// The images the message's HTML shows with `cid:`, as data: URIs by Content-ID.
    func inlineImages(_ email: Email) async -> [String: String] {
        guard email.hasAttachments, let attachments = try? await mail.mailboxes.attachments(emailId: email.id) else { return [:] }
        var images: [String: String] = [:]
        for (contentId, part) in await mail.attachments.inlineParts(emailId: email.id, attachments: attachments)
        where part.attachment.mimeType.hasPrefix("image/") {
            images[contentId] = "data:\(part.attachment.mimeType);base64,\(Data(part.data).base64EncodedString())"
        }
        return images
    }

    /// The declared type when it is a well-formed `type/subtype`, else a neutral one.
    static func downloadType(_ mimeType: String) -> String {
        let parts = mimeType.split(separator: "/")
        let ok = parts.count == 2 && mimeType.allSatisfy { $0.isLetter || $0.isNumber || "/.+-_".contains($0) }
        return ok ? mimeType.lowercased() : "application/octet-stream"
    }

    /// `attachment` with an ASCII fallback name and the real one in RFC 5987 form.
    static func disposition(filename: String) -> String {
        let cleaned = filename.map { $0 == "/" || $0 == "\\" || $0.isNewline ? "_" : $0 }
        let ascii = String(cleaned.map { $0.isASCII && $0 != "\"" && !($0.asciiValue.map { $0 < 0x20 } ?? true) ? $0 : "_" })
        let encoded = String(cleaned).utf8.map { byte -> String in
            let c = Character(Unicode.Scalar(byte))
            return byte < 0x80 && (c.isLetter || c.isNumber || "-._~".contains(c)) ? String(c) : String(format: "%%%02X", byte)
        }.joined()
        return "attachment; filename=\"\(ascii.isEmpty ? "attachment" : ascii)\"; filename*=UTF-8''\(encoded)"
    }
}

extension AttachmentError {
    var isNotFound: Bool {
        if case .notFound = self { return true }
        return false
    }
}

extension HTTPField.Name {
    static let contentDisposition = Self("Content-Disposition")!
}

/// `/message/{id}/image?u=ADDRESS&s=SIGNATURE`.
private struct ImageQuery: Decodable {
    var u: String?
    var s: String?
}

extension RemoteImageError {
    /// Refused by the shield or for what it is (not a failure of the remote server).
    var isRefusal: Bool {
        switch self {
        case .tracker, .notRemote, .notAnImage, .tooLarge: true
        case .status, .tooManyRedirects, .unreachable: false
        }
    }
}
