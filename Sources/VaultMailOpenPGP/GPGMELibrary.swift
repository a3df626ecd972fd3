import VaultMailCore
internal import CGPGME

/// GPGME's process-wide set-up and its error codes turned into Swift errors, in one place.
enum GPGMELibrary {
    /// `gpgme_check_version` must run once before any other call; a Swift global is
    /// initialized once, thread-safely.
    private static let version: String? = gpgme_check_version(nil).map { String(cString: $0) }

    static func initialize() {
        _ = version
    }

    /// Whether GnuPG's `gpg` can be run by GPGME.
    static func engineError() -> OpenPGPError? {
        initialize()
        let error = gpgme_engine_check_version(GPGME_PROTOCOL_OpenPGP)
        return cgpgme_code(error) == cgpgme_no_error ? nil : .engineUnavailable(describe(error))
    }

    /// GPGME's own words for `error` (never holds a secret: GnuPG's error strings are fixed).
    static func describe(_ error: gpgme_error_t) -> String {
        gpgme_strerror(error).map { String(cString: $0) } ?? "error \(cgpgme_code(error))"
    }

    /// Throws `OpenPGPError.failed` naming `operation` unless `error` is no error.
    static func check(_ error: gpgme_error_t, _ operation: String) throws(OpenPGPError) {
        guard cgpgme_code(error) != cgpgme_no_error else { return }
        throw .failed(operation: operation, reason: describe(error))
    }

    static func code(_ error: gpgme_error_t) -> UInt32 { cgpgme_code(error) }
}
