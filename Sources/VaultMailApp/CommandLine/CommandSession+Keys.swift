import Foundation
import VaultMailCore

/// `vaultmail key` (issue 32): an account's OpenPGP key, through Core's `OpenPGPKeys`.
extension CommandSession {
    /// `vaultmail key status ACCOUNT`: the account's key, or that it has none yet, and the
    /// correspondents' keys learnt from their mail (Autocrypt): address, fingerprint,
    /// prefer-encrypt, last seen, where the key came from and the recommendation it gives.
    public func keyStatus(account name: String) async throws -> String {
        let account = try await account(named: name)
        let keys = dependencies.openPGPKeys
        let key: OpenPGPKeyInfo?
        var peerLines: [String] = []
        do {
            key = try await keys.existingKey(for: account)
            for peer in try await keys.knownPeers(for: account) {
                peerLines.append("  \(peer.state.address)  \(peer.fingerprint ?? "(a key GnuPG cannot read)")"
                    + "  prefer-encrypt \(peer.state.preferMutual ? "mutual" : "nopreference")"
                    + "  last seen \(peer.state.lastSeen.formatted(.iso8601))  from \(peer.source.rawValue)"
                    + "  recommendation \(peer.recommendation)")
            }
            await keys.close()
        } catch {
            await keys.close()
            throw CommandError("cannot read the OpenPGP key of \(account.name): \(PlainWords.lines(error))")
        }
        let peers = peerLines.isEmpty ? "\nno correspondents' keys learnt from their mail (Autocrypt) yet"
            : "\ncorrespondents' keys learnt from their mail (Autocrypt):\n" + peerLines.joined(separator: "\n")
        guard let key else {
            return "\(account.name): no OpenPGP key yet; one is made when first needed (`vaultmail key export \(account.name)`)" + peers
        }
        return "\(account.name): \(key.userId ?? account.email)\n  fingerprint \(key.fingerprint)" + peers
    }

    /// `vaultmail key export ACCOUNT`: the account's public key, ASCII-armored; the key is made
    /// now when the account has none.
    public func exportKey(account name: String) async throws -> String {
        let account = try await account(named: name)
        let keys = dependencies.openPGPKeys
        do {
            let armored = try await keys.exportPublicKey(for: account)
            await keys.close()
            return armored.trimmingCharacters(in: .newlines)
        } catch {
            await keys.close()
            throw CommandError("cannot export the OpenPGP key of \(account.name): \(PlainWords.lines(error))")
        }
    }

    /// `vaultmail key import ACCOUNT`: others' public keys (`keys`, armored or binary) added to
    /// the account's keyring, so their signatures are checked.
    public func importKeys(_ keys: [UInt8], account name: String) async throws -> String {
        let account = try await account(named: name)
        let service = dependencies.openPGPKeys
        do {
            let imported = try await service.importPublicKeys(keys, for: account)
            await service.close()
            return imported.map { "imported \($0.fingerprint) \($0.userId ?? "")" }.joined(separator: "\n")
        } catch {
            await service.close()
            throw CommandError("cannot import into \(account.name)'s OpenPGP keyring: \(PlainWords.lines(error))")
        }
    }
}
