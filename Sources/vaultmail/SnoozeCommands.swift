import ArgumentParser
import VaultMailApp

struct SnoozeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze", abstract: "Take conversations out of the inbox until a time; they come back unread, with a notification.",
        discussion: """
            WHEN: this-evening (18:00), tomorrow (08:00), next-week (Monday 08:00), someday (until you unsnooze), \
            an ISO 8601 time (2026-12-01T09:00:00+01:00) or a local date and time (2026-12-01 09:00). \
            Kept on your IMAP server (the Snoozed mailbox, docs/snooze.md); the daemon brings them back.
            """)
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Thread ids (or unique prefixes).") var threadIds: [String] = []
    @Option(help: "When they come back (see above).") var until: String

    @MainActor
    func run() async throws { emit(try await global.session().snooze(threadIds, until: until)) }
}

struct UnsnoozeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unsnooze", abstract: "Bring snoozed conversations back to the inbox now.")
    @OptionGroup var global: GlobalOptions
    @Argument(help: "Thread ids (or unique prefixes).") var threadIds: [String] = []

    @MainActor
    func run() async throws { emit(try await global.session().unsnooze(threadIds)) }
}

struct SnoozedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "snoozed", abstract: "List snoozed conversations and when each comes back.")
    @OptionGroup var global: GlobalOptions
    @Flag(help: "JSON: threadId, accountId, subject, from, until (ISO 8601 or null), someday.") var json = false

    @MainActor
    func run() async throws { emit(try await global.session().snoozed(json: json)) }
}
