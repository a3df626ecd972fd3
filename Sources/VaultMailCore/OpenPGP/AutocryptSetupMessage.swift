import Foundation

/// The Autocrypt Setup Message (Autocrypt Level 1 §4.4, issue 32): the account's secret key,
/// encrypted with a setup code, sent by the account to itself so another app of the person's
/// can take the same key. Its form, written once: `Autocrypt-Setup-Message: v1`, To and From
/// the account's address, `multipart/mixed` with an explanation first and the
/// `application/autocrypt-setup` attachment second, holding the armored, symmetrically
/// encrypted key (`Passphrase-Format: numeric9x4`, `Passphrase-Begin: NN`).
public struct AutocryptSetupMessage: Sendable, Hashable {
    /// The armored payload as it stands in the attachment (text around it dropped).
    public var payload: String
    /// The message's `From` and `To` addresses.
    public var from: [String]
    public var to: [String]

    public init(payload: String, from: [String], to: [String]) {
        self.payload = payload
        self.from = from
        self.to = to
    }

    /// The header that marks it, and its only value Level 1 knows.
    public static let headerName = "Autocrypt-Setup-Message"
    public static let headerValue = "v1"
    public static let mimeType = "application/autocrypt-setup"
    public static let filename = "autocrypt-setup-message.txt"
    public static let subject = "Autocrypt Setup Message"

    /// The first part: what the message is, for whoever opens it.
    public static let explanation = """
        This is the Autocrypt Setup Message used to transfer your end-to-end encryption setup \
        between mail apps.

        To use it, open this message in an Autocrypt-capable app (VaultMail, Thunderbird, K-9 \
        Mail and other Autocrypt apps) and choose to import it. You will be asked for the \
        setup code that was shown when the message was made: 36 digits in nine blocks of four.

        The attachment holds your secret key, encrypted with that setup code. Keep the message \
        if you want a backup of your key, and keep the code apart from it: anyone with both can \
        read your encrypted mail.

        """

    /// `Passphrase-Format` of the payload's armor (nil when it names none).
    public var passphraseFormat: String? { OpenPGPArmor.headers(of: payload)["passphrase-format"] }
    /// `Passphrase-Begin`: the code's first digits, named in clear; nil when absent or not digits.
    public var passphraseBegin: String? {
        OpenPGPArmor.headers(of: payload)["passphrase-begin"].flatMap { value in value.allSatisfy { $0.isASCII && $0.isNumber } ? value : nil }
    }

    /// Whether it was sent by `address` to `address` alone (Level 1: both To and From are the
    /// account's address), ignoring case.
    public func isSelfAddressed(_ address: String) -> Bool {
        let own = address.lowercased()
        return from.map { $0.lowercased() } == [own] && to.map { $0.lowercased() } == [own]
    }
}

/// Reads an Autocrypt Setup Message out of a raw message (GMime, in VaultMailMIME).
public protocol AutocryptSetupReader: Sendable {
    /// The setup message in `raw`, or nil when it is none: no `Autocrypt-Setup-Message: v1`
    /// header (another value is ignored, as Level 1 says), or not `multipart/mixed` with an
    /// `application/autocrypt-setup` second part holding an armored `PGP MESSAGE`.
    func autocryptSetupMessage(in raw: [UInt8]) -> AutocryptSetupMessage?
}
