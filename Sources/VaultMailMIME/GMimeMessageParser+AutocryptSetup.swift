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
                  let multipart = cgmime_as_multipart(top), g_mime_multipart_get_count(multipart) >= 2,
                  let type = g_mime_object_get_content_type(top), // none
                  g_mime_content_type_get_media_subtype(type).map({ String(cString: $0).lowercased() }) == "mixed",
                  let second = g_mime_multipart_get_part(multipart, 1), // none
                  let secondType = g_mime_object_get_content_type(second), // none
                  let mimeType = g_mime_content_type_get_mime_type(secondType) else { return nil }
            // (transfer full) a g_malloc'd string.
            defer { g_free(mimeType) }
            guard String(cString: mimeType).lowercased() == AutocryptSetupMessage.mimeType,
                  let content = Self.decodedContent(second) else { return nil }
            return OpenPGPArmor.firstBlock(of: "PGP MESSAGE", in: String(decoding: content, as: UTF8.self))
        }
        guard let found else { return nil }
        let parsed = parse(raw)
        return AutocryptSetupMessage(payload: found, from: parsed.from.map(\.email), to: parsed.to.map(\.email))
    }
}
