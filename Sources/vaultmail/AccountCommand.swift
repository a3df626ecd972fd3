import ArgumentParser
import Foundation
import VaultMailApp
import VaultMailCore

struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Add, change, list and remove mail accounts.",
        subcommands: [Add.self, Change.self, List.self, Remove.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an account.",
            discussion: "With --password-command or --oauth2-token-command the secret is never stored: VaultMail runs the command each time it needs it (like mbsync's PassCmd). With --password-stdin it goes to the Secret Service keyring, never the database.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "A short name for the account (letters, digits, - _ .).") var name: String
        @Option(help: "The account's email address.") var email: String
        @Option(help: ArgumentHelp("The IMAP server.", valueName: "host[:port]")) var imap: String
        @Option(help: ArgumentHelp("The SMTP server.", valueName: "host[:port]")) var smtp: String
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
            guard given == 1 else {
                throw ValidationError("give exactly one of --password-command, --password-stdin or --oauth2-token-command")
            }
        }

        @MainActor
        func run() async throws {
            let credential: CommandSession.CredentialSource
            if let passwordCommand {
                credential = .passwordCommand(passwordCommand)
            } else if let oauth2TokenCommand {
                credential = .oauth2TokenCommand(oauth2TokenCommand)
            } else {
                let input = FileHandle.standardInput.readDataToEndOfFile()
                let line = String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
                credential = .password(String(line))
            }
            var new = CommandSession.NewAccount(name: name, email: email, imap: imap, smtp: smtp, credential: credential)
            new.security = security
            new.user = user
            new.caFile = caFile
            new.syncWindowDays = try CommandSession.syncWindowDays(syncWindowDays)
            emit(try await global.session().addAccount(new))
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
        static let configuration = CommandConfiguration(abstract: "List the accounts.")
        @OptionGroup var global: GlobalOptions

        @MainActor
        func run() async throws {
            emit(try await global.session().listAccounts())
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an account and everything stored for it.")
        @OptionGroup var global: GlobalOptions
        @Argument var name: String

        @MainActor
        func run() async throws {
            emit(try await global.session().removeAccount(named: name))
        }
    }
}

extension ConnectionSecurity: ExpressibleByArgument {}
