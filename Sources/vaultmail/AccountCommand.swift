import ArgumentParser
import Foundation
import VaultMailApp
import VaultMailCore

struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Add, change, list and remove mail accounts.",
        subcommands: [Add.self, Reauth.self, Change.self, List.self, Default.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add an account.",
            discussion: "With --provider gmail or outlook, VaultMail signs in with Google or Microsoft in your browser (OAuth2) and keeps the sign-in in the Secret Service keyring; --imap and --smtp are then optional. With --password-command or --oauth2-token-command the secret is never stored: VaultMail runs the command each time it needs it (like mbsync's PassCmd). With --password-stdin it goes to the Secret Service keyring, never the database.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A short name for the account (letters, digits, - _ .).") var name: String
        @Option(help: "The account's email address.") var email: String
        @Option(help: ArgumentHelp("Sign in with this provider in the browser (OAuth2).", valueName: "gmail|outlook")) var provider: String?
        @Option(help: ArgumentHelp("The OAuth2 client ID to sign in as (default: the environment or configuration; docs/oauth.md).", valueName: "id"))
        var oauthClientId: String?
        @Option(help: ArgumentHelp("The IMAP server (with --provider: the provider's).", valueName: "host[:port]")) var imap: String?
        @Option(help: ArgumentHelp("The SMTP server (with --provider: the provider's).", valueName: "host[:port]")) var smtp: String?
        @Option(help: "tls (993/465), starttls (143/587) or plain (loopback only).") var security: ConnectionSecurity = .tls
        @Option(help: "The login name (default: the email address).") var user: String?
        @Option(help: ArgumentHelp("A PEM file of CA certificates to trust for this account.", valueName: "pem")) var caFile: String?
        @Option(help: ArgumentHelp("Days of mail sync fetches, or all.", valueName: "N|all"))
        var syncWindowDays = String(AppConstants.defaultSyncWindowDays)
        @Option(help: ArgumentHelp("A command that prints the password.", valueName: "cmd")) var passwordCommand: String?
        @Flag(help: "Read the password from standard input and keep it in the Secret Service keyring.") var passwordStdin = false
        @Option(help: ArgumentHelp("A command that prints an OAuth2 access token (XOAUTH2).", valueName: "cmd")) var oauth2TokenCommand: String?

        func validate() throws {
            let given = [passwordCommand != nil, passwordStdin, oauth2TokenCommand != nil].filter { $0 }.count
            if provider != nil {
                guard given == 0 else {
                    throw ValidationError("--provider signs in in the browser: give no --password-command, --password-stdin or --oauth2-token-command with it")
                }
                return
            }
            guard oauthClientId == nil else { throw ValidationError("--oauth-client-id goes with --provider") }
            guard imap != nil, smtp != nil else { throw ValidationError("give --imap and --smtp, or --provider gmail|outlook") }
            guard given == 1 else {
                throw ValidationError("give exactly one of --password-command, --password-stdin or --oauth2-token-command, or --provider")
            }
        }

        @MainActor
        func run() async throws {
            if let provider {
                var new = CommandSession.NewOAuthAccount(name: name, email: email, provider: provider, clientID: oauthClientId)
                new.imap = imap
                new.smtp = smtp
                new.user = user
                new.caFile = caFile
                new.syncWindowDays = try CommandSession.syncWindowDays(syncWindowDays)
                emit(try await global.session().addOAuthAccount(new, progress: progress))
                return
            }
            guard let imap, let smtp else { throw ValidationError("give --imap and --smtp") }
            let credential: AccountSecret
            if let passwordCommand {
                credential = .passwordCommand(passwordCommand)
            } else if let oauth2TokenCommand {
                credential = .oauth2TokenCommand(oauth2TokenCommand)
            } else {
                let input = FileHandle.standardInput.readDataToEndOfFile()
                let line = String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
                credential = .password(Secret(String(line)))
            }
            var new = CommandSession.NewAccount(name: name, email: email, imap: imap, smtp: smtp, credential: credential)
            new.security = security
            new.user = user
            new.caFile = caFile
            new.syncWindowDays = try CommandSession.syncWindowDays(syncWindowDays)
            emit(try await global.session().addAccount(new))
        }
    }

    struct Reauth: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reauth",
            abstract: "Sign in again to an account that uses Google or Microsoft sign-in.",
            discussion: "Runs the browser sign-in again (after the provider revoked it, or a password change) and keeps the new sign-in in the keyring. All mail stays on this computer.")
        @OptionGroup var global: GlobalOptions
        @Argument var name: String
        @Option(help: ArgumentHelp("Sign in as this OAuth2 client ID instead of the one used before.", valueName: "id")) var oauthClientId: String?

        @MainActor
        func run() async throws {
            emit(try await global.session().reauthAccount(named: name, clientID: oauthClientId, progress: progress))
        }
    }

    struct Change: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Change an account.",
            discussion: "A wider --sync-window-days (or all) makes the next sync fetch the older mail, newest first; a narrower one deletes nothing already stored, it only stops reaching further back.")
        @OptionGroup var global: GlobalOptions
        @Argument var name: String
        @Option(help: ArgumentHelp("Days of mail sync fetches, or all.", valueName: "N|all")) var syncWindowDays: String

        @MainActor
        func run() async throws {
            let days = try CommandSession.syncWindowDays(syncWindowDays)
            emit(try await global.session().setAccount(named: name, syncWindowDays: days))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts.")
        @OptionGroup var global: GlobalOptions

        @MainActor
        func run() async throws {
            emit(try await global.session().listAccounts())
        }
    }

    struct Default: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "default", abstract: "Write new mail from this account unless another is chosen.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The account name.") var name: String

        @MainActor
        func run() async throws { emit(try await global.session().setDefaultAccount(named: name)) }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove an account and everything stored for it.")
        @OptionGroup var global: GlobalOptions
        @Argument var name: String

        @MainActor
        func run() async throws {
            emit(try await global.session().removeAccount(named: name))
        }
    }
}

extension ConnectionSecurity: ExpressibleByArgument {}

/// What the browser sign-in says while it waits (the consent URL), on standard error.
@Sendable
private func progress(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
