import Foundation
import VaultMailCore

/// `vaultmail key setup-message` and `key import-setup` (issue 32): the Autocrypt Setup
/// Message, through Core's `AutocryptSetup`.
extension CommandSession {
    /// `vaultmail key setup-message [ACCOUNT]`: sends the account's key to itself under a new
    /// setup code and prints the code, this once. With no account named, the only one.
    public func sendSetupMessage(account name: String?) async throws -> String {
        let account: Account
        if let name {
            account = try await self.account(named: name)
        } else {
            let all = try await accountService.all()
            guard all.count == 1 else {
                throw CommandError(all.isEmpty ? "no account yet; add one with `vaultmail account add`"
                                   : "name the account: \(all.map(\.name).joined(separator: ", "))", usage: !all.isEmpty)
            }
            account = all[0]
        }
        let setup = dependencies.autocryptSetup(sending: sending)
        let sent: AutocryptSetup.Sent
        do {
            sent = try await setup.sendSetupMessage(account: account)
        } catch {
            await dependencies.openPGPEngine.close()
            throw CommandError("no setup message sent for \(account.name): \(PlainWords.lines(error))")
        }
        await dependencies.openPGPEngine.close()
        let state = sent.waiting.map { "is waiting in the outbox (\($0)); the daemon sends it when the server answers" } ?? "was sent"
        let code = sent.code.shown.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n")
        return """
            An Autocrypt Setup Message for \(account.email) \(state) to \(account.email) (\(sent.emailId.prefix(ThreadRow.idLength))).
            It holds your secret key, encrypted with this setup code. Write the code down now: it is shown only this once and kept nowhere.

            \(code)

            In your other mail app, open the message "\(AutocryptSetupMessage.subject)" and type the code to use the same key there.
            """
    }

    /// `vaultmail key import-setup MESSAGE_ID`: makes the key in that setup message the
    /// account's key, opened with `code` (read by the tool from standard input or the terminal).
    public func importSetupMessage(_ prefix: String, code: String) async throws -> String {
        let id = try await emailId(prefix)
        let setup = dependencies.autocryptSetup(sending: sending)
        do {
            let (account, key) = try await setup.importSetupMessage(emailId: id, typedCode: code)
            await dependencies.openPGPEngine.close()
            return "\(account.name) now uses the key from the setup message: \(key.userId ?? account.email)\n"
                + "  fingerprint \(key.fingerprint)\n"
                + "Its earlier key stays in its keyring, so mail encrypted to it still opens."
        } catch {
            await dependencies.openPGPEngine.close()
            throw CommandError("setup message not imported: \(PlainWords.lines(error))")
        }
    }
}
