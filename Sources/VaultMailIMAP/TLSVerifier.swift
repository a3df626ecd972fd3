import Crypto
import Foundation
internal import CEtPan
import VaultMailCore

/// Verifies a server's certificate chain after the TLS handshake and before anything else is
/// sent: trusted by the system store (`/etc/ssl/certs/ca-certificates.crt`) or by the CA file
/// the account names, valid now, meant for TLS servers, and issued for the host name (or IP
/// address) we connected to. Debian's libetpan verifies none of this itself.
///
/// Shared by the IMAP and (later) SMTP sessions.
enum TLSVerifier {
    struct Failure: Error, Equatable {
        /// Why the chain is not accepted, in words for the user.
        var reason: String
    }

    /// Verifies the chain of a libetpan TLS stream.
    static func verifyPeer(of low: UnsafeMutablePointer<mailstream_low>, host: String, caFile: String?) throws(Failure) {
        // Ownership: mailstream_low_get_certificate_chain returns a new carray of new MMAPStrings
        // (DER, leaf first); mailstream_certificate_chain_free frees both.
        guard let chain = mailstream_low_get_certificate_chain(low) else {
            throw Failure(reason: "the server presented no certificate")
        }
        defer { mailstream_certificate_chain_free(chain) }
        var certificates: [[UInt8]] = []
        for index in 0..<vm_carray_count(chain) {
            guard let raw = vm_carray_get(chain, index) else { continue }
            let string = raw.assumingMemoryBound(to: MMAPString.self)
            let bytes = UnsafeRawBufferPointer(start: string.pointee.str, count: string.pointee.len)
            certificates.append(Array(bytes))
        }
        try verify(chain: certificates, host: host, caFile: caFile)
    }

    /// Verifies DER certificates (leaf first) for `host`.
    static func verify(chain: [[UInt8]], host: String, caFile: String?, useSystemTrust: Bool = true) throws(Failure) {
        guard !chain.isEmpty else { throw Failure(reason: "the server presented no certificate") }

        var trustList: gnutls_x509_trust_list_t?
        guard gnutls_x509_trust_list_init(&trustList, 0) >= 0, let trustList else {
            throw Failure(reason: "GnuTLS could not create a trust list")
        }
        // Ownership: the list owns the CA certificates added to it; deinit(…, 1) frees them.
        defer { gnutls_x509_trust_list_deinit(trustList, 1) }

        var trustedCount: Int32 = 0
        if useSystemTrust {
            let added = gnutls_x509_trust_list_add_system_trust(trustList, 0, 0)
            if added > 0 { trustedCount += added }
        }
        if let caFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw Failure(reason: "the CA file \(caFile) cannot be read")
            }
            let added = gnutls_x509_trust_list_add_trust_file(trustList, caFile, nil, GNUTLS_X509_FMT_PEM, 0, 0)
            guard added > 0 else {
                throw Failure(reason: "the CA file \(caFile) holds no PEM certificate")
            }
            trustedCount += added
        }
        guard trustedCount > 0 else {
            throw Failure(reason: "no trusted CA certificate is available (install ca-certificates or name a CA file)")
        }

        var certificates: [gnutls_x509_crt_t?] = []
        defer { for certificate in certificates { gnutls_x509_crt_deinit(certificate) } }
        for der in chain {
            var certificate: gnutls_x509_crt_t?
            guard gnutls_x509_crt_init(&certificate) >= 0 else { throw Failure(reason: "GnuTLS is out of memory") }
            certificates.append(certificate)
            let imported = der.withUnsafeBufferPointer { buffer -> Int32 in
                var datum = gnutls_datum_t(data: UnsafeMutablePointer(mutating: buffer.baseAddress), size: UInt32(buffer.count))
                return gnutls_x509_crt_import(certificate, &datum, GNUTLS_X509_FMT_DER)
            }
            guard imported >= 0 else {
                throw Failure(reason: "the server's certificate cannot be read: \(String(cString: gnutls_strerror(imported)))")
            }
        }

        // A textual IP address in GNUTLS_DT_DNS_HOSTNAME is matched against IP address SANs.
        let hostName = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var status: UInt32 = 0
        let verified = hostName.withCString { hostPointer in
            "1.3.6.1.5.5.7.3.1".withCString { serverAuthOID in  // GNUTLS_KP_TLS_WWW_SERVER
                var data = [
                    gnutls_typed_vdata_st(
                        type: GNUTLS_DT_DNS_HOSTNAME,
                        data: UnsafeMutableRawPointer(mutating: hostPointer).assumingMemoryBound(to: UInt8.self), size: 0),
                    gnutls_typed_vdata_st(
                        type: GNUTLS_DT_KEY_PURPOSE_OID,
                        data: UnsafeMutableRawPointer(mutating: serverAuthOID).assumingMemoryBound(to: UInt8.self), size: 0),
                ]
                return gnutls_x509_trust_list_verify_crt2(
                    trustList, &certificates, UInt32(certificates.count), &data, UInt32(data.count), 0, &status, nil)
            }
        }
        guard verified >= 0 else {
            throw Failure(reason: "the certificate could not be verified: \(String(cString: gnutls_strerror(verified)))")
        }
        guard status == 0 else {
            throw Failure(reason: describe(status: status, host: hostName) + "; its SHA-256 fingerprint is " + fingerprint(chain[0]))
        }
    }

    /// `AB:CD:…`, as browsers and `openssl x509 -fingerprint -sha256` show it.
    static func fingerprint(_ der: [UInt8]) -> String {
        let hex = SHA256.hash(data: der).hexString.uppercased()
        return stride(from: 0, to: hex.count, by: 2).map { offset in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return String(hex[start..<hex.index(start, offsetBy: 2)])
        }.joined(separator: ":")
    }

    private static func describe(status: UInt32, host: String) -> String {
        var reasons: [String] = []
        if status & GNUTLS_CERT_UNEXPECTED_OWNER.rawValue != 0 {
            reasons.append("it is not issued for \(host)")
        }
        if status & (GNUTLS_CERT_SIGNER_NOT_FOUND.rawValue | GNUTLS_CERT_SIGNER_NOT_CA.rawValue) != 0 {
            reasons.append("it is not signed by a trusted certificate authority")
        }
        if status & GNUTLS_CERT_EXPIRED.rawValue != 0 { reasons.append("it has expired") }
        if status & GNUTLS_CERT_NOT_ACTIVATED.rawValue != 0 { reasons.append("it is not valid yet") }
        if status & GNUTLS_CERT_REVOKED.rawValue != 0 { reasons.append("it has been revoked") }
        if status & GNUTLS_CERT_PURPOSE_MISMATCH.rawValue != 0 { reasons.append("it is not meant for a TLS server") }
        if status & GNUTLS_CERT_INSECURE_ALGORITHM.rawValue != 0 { reasons.append("it is signed with an insecure algorithm") }
        if reasons.isEmpty {
            var text = gnutls_datum_t()
            if gnutls_certificate_verification_status_print(status, GNUTLS_CRT_X509, &text, 0) >= 0, let data = text.data {
                // Ownership: the printed text is allocated by GnuTLS and freed with gnutls_free.
                defer { vm_gnutls_free(data) }
                reasons.append(String(cString: data))
            } else {
                reasons.append("it is not valid (GnuTLS status \(status))")
            }
        }
        return "the server's certificate is not trusted: " + reasons.joined(separator: "; ")
    }
}
