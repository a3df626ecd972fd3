import ArgumentParser
import Foundation
import VaultMailApp
import VaultMailCore

/// The `vaultmail` command line. Parsing only: the work lives in VaultMailApp.
@main
struct VaultMailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vaultmail",
        abstract: "A local-first, privacy-first email engine: IMAP sync into a local store, threads, SMTP sending and desktop notifications.",
        discussion: """
            No mail, token or metadata leaves this machine except to your own mail servers.
            Data lives in --home (default $XDG_DATA_HOME/vaultmail, or $VAULTMAIL_HOME).
            In thread lists ● marks unread, ★ starred, + attachments; ids may be shortened to a unique prefix.
            Exit codes: 0 success, 1 failure, 2 usage error.
            """,
        version: VaultMailVersion.current,
        subcommands: [
            AccountCommand.self, SyncCommand.self, DaemonCommand.self, ThreadsCommand.self, SearchCommand.self, ShowCommand.self, SendCommand.self,
            ReadCommand.self, UnreadCommand.self, StarCommand.self, UnstarCommand.self,
            ArchiveCommand.self, DeleteCommand.self, MoveCommand.self, OutboxCommand.self, DraftsCommand.self, NotifyCommand.self, OpenCommand.self, AICommand.self,
            CategorizeCommand.self, WhyCategoryCommand.self, ReplySuggestCommand.self, SummarizeCommand.self,
            UnsubscribeCommand.self, SubscriptionsCommand.self, SnoozeCommand.self, UnsnoozeCommand.self, SnoozedCommand.self, RemindCommand.self, RemindersCommand.self, KeyCommand.self, StorageCommand.self,
        ]
    )

    @OptionGroup var global: GlobalOptions

    /// Runs the command; usage errors exit with 2 (argument-parser's own code is 64 here).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as CommandError {
            FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
            Foundation.exit(error.isUsage ? 2 : 1)
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data("\(fullMessage(for: error))\n".utf8))
                Foundation.exit(2)
            }
            if exitCode(for: error) == .success || error is ExitCode || error is CleanExit {
                exit(withError: error)
            }
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            Foundation.exit(1)
        }
    }
}

/// Options every command takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The data directory (default $VAULTMAIL_HOME, else $XDG_DATA_HOME/vaultmail).", valueName: "dir"))
    var home: String?

    /// Opens the store of `--home` on the main actor.
    @MainActor
    func session() throws -> CommandSession {
        try CommandSession(home: VaultMailHome(explicit: home))
    }
}

/// Prints a command's output.
func emit(_ text: String) {
    print(text)
}
