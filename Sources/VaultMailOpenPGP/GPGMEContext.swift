import VaultMailCore
internal import CGPGME

/// One GPGME context (`gpgme_ctx_t`) for one account's GnuPG home, made for one operation and
/// released in `deinit`. Offline (no key server is ever asked), armored output, and the
/// passphrase, when given, handed to GnuPG's agent through the loopback callback: GnuPG never
/// shows a prompt, and the passphrase never reaches a command line or the environment.
final class GPGMEContext {
    let pointer: gpgme_ctx_t
    /// Kept alive for the callback, which GPGME calls with a plain pointer to it.
    private let passphraseBox: PassphraseBox?

    convenience init(home: String, passphrase: Secret?) throws(OpenPGPError) {
        try self.init(home: home, passphrases: passphrase.map { [$0] } ?? [])
    }

    /// A context whose callback gives `passphrases` in turn, the last one again after that
    /// (changing a key's passphrase asks the old one, then the new). Empty: none is given.
    init(home: String, passphrases: [Secret]) throws(OpenPGPError) {
        GPGMELibrary.initialize()
        var context: gpgme_ctx_t?
        try GPGMELibrary.check(gpgme_new(&context), "start GnuPG")
        guard let context else { throw .engineUnavailable("GPGME made no context") }
        pointer = context
        passphraseBox = passphrases.isEmpty ? nil : PassphraseBox(passphrases)
        try GPGMELibrary.check(gpgme_set_protocol(context, GPGME_PROTOCOL_OpenPGP), "use OpenPGP")
        try GPGMELibrary.check(gpgme_ctx_set_engine_info(context, GPGME_PROTOCOL_OpenPGP, nil, home), "use the account's GnuPG home")
        try GPGMELibrary.check(gpgme_set_pinentry_mode(context, GPGME_PINENTRY_MODE_LOOPBACK), "turn GnuPG's prompts off")
        gpgme_set_offline(context, 1)
        gpgme_set_armor(context, 1)
        if let passphraseBox {
            gpgme_set_passphrase_cb(context, gpgmePassphrase, Unmanaged.passUnretained(passphraseBox).toOpaque())
        } else {
            gpgme_set_passphrase_cb(context, gpgmeNoPassphrase, nil)
        }
    }

    /// Tells GnuPG not to keep passphrases of symmetric encryption in its agent (the setup
    /// code of an Autocrypt Setup Message is asked every time, never remembered).
    func forgetSymmetricPassphrases() throws(OpenPGPError) {
        try GPGMELibrary.check(gpgme_set_ctx_flag(pointer, "no-symkey-cache", "1"), "keep GnuPG from remembering the setup code")
    }

    deinit {
        gpgme_release(pointer)
    }
}

/// The passphrases as the callback reads them, in turn (the last one again after that).
final class PassphraseBox {
    private let all: [[UInt8]]
    private var next = 0
    init(_ secrets: [Secret]) { all = secrets.map { Array($0.revealed.utf8) + [0x0A] } }

    /// The passphrase to give now, with its newline.
    func take() -> [UInt8] {
        defer { next = min(next + 1, all.count - 1) }
        return all[next]
    }
}

/// GPGME's passphrase callback: writes the passphrase and a newline to `fd` (GPGME's pipe to
/// GnuPG's agent). A passphrase that was already refused is not sent again.
private func gpgmePassphrase(hook: UnsafeMutableRawPointer?, uidHint: UnsafePointer<CChar>?, info: UnsafePointer<CChar>?,
                             previousWasBad: Int32, fd: Int32) -> gpgme_error_t {
    guard let hook, previousWasBad == 0 else { return cgpgme_error(cgpgme_bad_passphrase) }
    let box = Unmanaged<PassphraseBox>.fromOpaque(hook).takeUnretainedValue()
    let written = box.take().withUnsafeBytes { gpgme_io_writen(fd, $0.baseAddress, $0.count) }
    return written == 0 ? cgpgme_error(cgpgme_no_error) : cgpgme_error(cgpgme_canceled)
}

/// The callback when no passphrase was fetched: GnuPG is told the user cancelled.
private func gpgmeNoPassphrase(hook: UnsafeMutableRawPointer?, uidHint: UnsafePointer<CChar>?, info: UnsafePointer<CChar>?,
                               previousWasBad: Int32, fd: Int32) -> gpgme_error_t {
    cgpgme_error(cgpgme_canceled)
}
