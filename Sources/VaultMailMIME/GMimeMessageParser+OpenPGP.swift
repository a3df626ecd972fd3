import VaultMailCore
internal import CGMime

/// `OpenPGPStructureReader` over the same GMime reading as `parse` (issue 32): the PGP/MIME
/// structure of RFC 3156 at the top of a message or of a decrypted MIME entity.
///
/// - `multipart/encrypted; protocol="application/pgp-encrypted"`: the OpenPGP message is the
///   second part's content (transfer encoding undone).
/// - `multipart/signed; protocol="application/pgp-signature"`: the signature is the second
///   part's content; the signed content is the first part exactly as it stands in `raw`,
///   between its boundary lines, with CRLF line ends (RFC 3156 §5). It is cut from the bytes
///   (`SignedPartBytes`), never written back out by GMime, which would not keep every byte.
extension GMimeMessageParser: OpenPGPStructureReader {
    public func openPGPPayload(in raw: [UInt8]) -> OpenPGPPayload? {
        Self.withMessage(in: raw) { message, _ in
            guard case .success(let message) = message,
                  let top = g_mime_message_get_mime_part(message.pointer), // none
                  let multipart = cgmime_as_multipart(top), g_mime_multipart_get_count(multipart) == 2,
                  let type = g_mime_object_get_content_type(top) else { return nil } // none
            let subtype = g_mime_content_type_get_media_subtype(type).map { String(cString: $0).lowercased() }
            let proto = g_mime_content_type_get_parameter(type, "protocol").map { String(cString: $0).lowercased() }
            let second = Self.decodedContent(g_mime_multipart_get_part(multipart, 1)) // none
            switch (subtype, proto) {
            case ("encrypted", "application/pgp-encrypted"):
                guard let second, !second.isEmpty else { return nil }
                return .encrypted(ciphertext: second)
            case ("signed", "application/pgp-signature"):
                guard let second, !second.isEmpty,
                      let boundary = g_mime_content_type_get_parameter(type, "boundary").map({ String(cString: $0) }),
                      let content = SignedPartBytes.firstPart(of: raw, boundary: boundary) else { return nil }
                return .signed(content: content, signature: second)
            default:
                return nil
            }
        }
    }

    /// The content of a leaf part with its transfer encoding undone; nil for anything else.
    static func decodedContent(_ object: UnsafeMutablePointer<GMimeObject>?) -> [UInt8]? {
        guard let part = cgmime_as_part(object), let wrapper = g_mime_part_get_content(part) else { return nil } // none
        let stream = GObjectHandle(owning: g_mime_stream_mem_new()) // full
        _ = g_mime_data_wrapper_write_to_stream(wrapper, stream.pointer)
        return MemoryStream.bytes(of: stream)
    }
}
