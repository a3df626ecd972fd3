import Crypto

/// Ids derived from content, so the same thing always gets the same id on every machine.
public enum StableID {
    /// SHA-256 hex of the parts joined as they are.
    public static func make(_ parts: String...) -> String {
        SHA256.hash(data: Array(parts.joined().utf8)).hexString
    }
}
