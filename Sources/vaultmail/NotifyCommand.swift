import ArgumentParser
import VaultMailApp

struct NotifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notify", abstract: "Which mail notifies, and why.",
        subcommands: [Status.self, On.self, Off.self, Account.self, Category.self, VIP.self, Mute.self, Unmute.self,
                      Muted.self, Watch.self, Unwatch.self, Watched.self, Show.self, Authserv.self, QuietHours.self, Why.self, Log.self])

    enum Switch: String, ExpressibleByArgument, CaseIterable {
        case on, off
        var isOn: Bool { self == .on }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "The notification server, its capabilities, authorization, settings and badge.")
        @OptionGroup var global: GlobalOptions
        @MainActor func run() async throws { emit(try await global.session().notifyStatus()) }
    }

    struct On: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "on", abstract: "Turn notifications on.")
        @OptionGroup var global: GlobalOptions
        @MainActor func run() async throws { emit(try await global.session().setNotifications(true)) }
    }

    struct Off: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "off", abstract: "Turn notifications off (mail is still synced and counted).")
        @OptionGroup var global: GlobalOptions
        @MainActor func run() async throws { emit(try await global.session().setNotifications(false)) }
    }

    struct Account: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "account", abstract: "Turn one account's notifications on or off.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The account name.") var name: String
        @Argument(help: "on or off.") var state: Switch
        @MainActor func run() async throws { emit(try await global.session().setAccountNotifications(name, state.isOn)) }
    }

    struct Category: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "category", abstract: "Turn a category's notifications on or off.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "primary, social, promotions, updates or forums.") var name: String
        @Argument(help: "on or off.") var state: Switch
        @MainActor func run() async throws { emit(try await global.session().setCategoryNotifications(name, state.isOn)) }
    }

    struct VIP: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "vip", abstract: "Senders whose mail always notifies.", subcommands: [Add.self, Remove.self, List.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "add", abstract: "Always notify for mail from this sender.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "An email address.") var address: String
            @MainActor func run() async throws { emit(try await global.session().vip(add: address)) }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "remove", abstract: "Stop treating this sender as a VIP.")
            @OptionGroup var global: GlobalOptions
            @Argument(help: "An email address.") var address: String
            @MainActor func run() async throws { emit(try await global.session().vip(remove: address)) }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "list", abstract: "List the VIP senders.")
            @OptionGroup var global: GlobalOptions
            @MainActor func run() async throws { emit(try await global.session().vipList()) }
        }
    }

    struct Mute: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "mute", abstract: "Never notify for a conversation.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The thread id (or a unique prefix).") var threadId: String
        @MainActor func run() async throws { emit(try await global.session().mute(threadId, true)) }
    }

    struct Unmute: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unmute", abstract: "Notify for a muted conversation again.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The thread id (or a unique prefix).") var threadId: String
        @MainActor func run() async throws { emit(try await global.session().mute(threadId, false)) }
    }

    struct Muted: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "muted", abstract: "List muted conversations.")
        @OptionGroup var global: GlobalOptions
        @MainActor func run() async throws { emit(try await global.session().mutedList()) }
    }

    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "watch", abstract: "Notify me: a conversation's new mail comes first and passes the category switches.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The thread id (or a unique prefix).") var threadId: String
        @MainActor func run() async throws { emit(try await global.session().watch(threadId, true)) }
    }

    struct Unwatch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "unwatch", abstract: "Take \"notify me\" off a conversation.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The thread id (or a unique prefix).") var threadId: String
        @MainActor func run() async throws { emit(try await global.session().watch(threadId, false)) }
    }

    struct Watched: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "watched", abstract: "List conversations marked \"notify me\".")
        @OptionGroup var global: GlobalOptions
        @MainActor func run() async throws { emit(try await global.session().watchedList()) }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "What a desktop notification shows: full (sender, subject, preview), sender, or none.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "full, sender or none.") var level: String
        @MainActor func run() async throws { emit(try await global.session().notificationContent(level)) }
    }

    struct Authserv: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "authserv",
            abstract: "The name your mail server writes in Authentication-Results; a VIP breaks through only when it vouches for the sender.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The account name.") var account: String
        @Argument(help: ArgumentHelp("The server's authserv-id (several separated by commas), or auto.", valueName: "name|auto")) var names: String
        @MainActor func run() async throws { emit(try await global.session().authserv(account, names)) }
    }

    struct QuietHours: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "quiet-hours", abstract: "No notifications between two times (authenticated VIPs still notify); one digest when they end.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("HH:MM-HH:MM in 24-hour time (e.g. 22:00-07:00), or off.", valueName: "range")) var range: String
        @MainActor func run() async throws { emit(try await global.session().quietHours(range)) }
    }

    struct Why: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "why", abstract: "Why an email did or did not notify.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The email id (or a unique prefix), from `vaultmail show`.") var emailId: String
        @MainActor func run() async throws { emit(try await global.session().why(emailId)) }
    }

    struct Log: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "log", abstract: "The latest notification decisions, newest first.")
        @OptionGroup var global: GlobalOptions
        @Option(help: "How many.") var limit = 20
        @Flag(help: "JSON.") var json = false
        @MainActor func run() async throws { emit(try await global.session().log(limit: limit, json: json)) }
    }
}
