import Foundation
internal import CGMime
import VaultMailCore

/// `AutocryptSetupReader` over GMime (issue 32, Autocrypt Level 1 §4.4).
extension GMimeMessageParser: AutocryptSetupReader {
    public func autocryptSetupMessage(in raw: [UInt8]) -> AutocryptSetupMessage? {
        let found: String? = Self.withMessage(in: raw) { message, _ in
            guard case .success(let message) = message,
                  let marker = g_mime_object_get_header(cgmime_message_as_object(message.pointer), AutocryptSetupMessage.headerName), // none
                  String(cString: marker).trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == AutocryptSetupMessage.headerValue,
                  let top = g_mime_message_get_mime_part(message.pointer), // none
                  Self.mimeType(of: top) == "multipart/mixed",
                  let part = Self.setupPart(in: top, depth: 0),
                  let content = Self.decodedContent(part) else { return nil }
            return OpenPGPArmor.firstBlock(of: "PGP MESSAGE", in: String(decoding: content, as: UTF8.self))
        }
        guard let found else { return nil }
        let parsed = parse(raw)
        return AutocryptSetupMessage(payload: found, from: parsed.from.map(\.email), to: parsed.to.map(\.email))
    }

    /// The first `application/autocrypt-setup` part under `object`: Level 1 puts it second in
    /// the message's `multipart/mixed`; Delta Chat nests that `multipart/mixed` in another.
    private static func setupPart(in object: UnsafeMutablePointer<GMimeObject>, depth: Int) -> UnsafeMutablePointer<GMimeObject>? {
        guard depth < 4 else { return nil }
        if let multipart = cgmime_as_multipart(object) {
            for index in 0..<max(g_mime_multipart_get_count(multipart), 0) {
                if let child = g_mime_multipart_get_part(multipart, index), // none
                   let found = setupPart(in: child, depth: depth + 1) { return found }
            }
            return nil
        }
        return mimeType(of: object) == AutocryptSetupMessage.mimeType ? object : nil
    }

    /// `type/subtype` of `object`, in lower case.
    private static func mimeType(of object: UnsafeMutablePointer<GMimeObject>) -> String? {
        guard let type = g_mime_object_get_content_type(object), // none
              let mimeType = g_mime_content_type_get_mime_type(type) else { return nil }
        // (transfer full) a g_malloc'd string.
        defer { g_free(mimeType) }
        return String(cString: mimeType).lowercased()
    }
}
