/// A detached OpenPGP signature (`OpenPGPEngine.detachedSignature`) and the hash it was made
/// with, as `multipart/signed`'s `micalg` parameter names it (RFC 3156 §5).
public struct OpenPGPDetachedSignature: Sendable, Hashable {
    /// The signature, ASCII-armored.
    public var armored: [UInt8]
    /// `pgp-` and the hash's name in lower case: `pgp-sha256`, `pgp-sha512`.
    public var micalg: String

    public init(armored: [UInt8], micalg: String) {
        self.armored = armored
        self.micalg = micalg
    }
}
