/// The version `vaultmail --version` prints.
public enum VaultMailVersion {
    public static let current = "0.1.0"
}
