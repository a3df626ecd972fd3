import Foundation

/// A time offered with one word for send later (issue 33), in the user's time zone: this
/// evening (18:00 today, while at least an hour away), tomorrow morning (08:00), Monday morning
/// (08:00 next Monday) — snooze's presets (`SnoozePreset`) under send-later names.
/// `ComposeEmailService.sendLaterChoices()` lists them; `sendTime(from:)` reads their words.
public struct SendLaterChoice: Sendable, Hashable {
    /// The word the tool's `--at` and the web composer's menu post: `this-evening`, `tomorrow`, `next-week`.
    public var word: String
    /// "This evening", "Tomorrow morning", "Monday morning".
    public var label: String
    public var date: Date

    public init(word: String, label: String, date: Date) {
        self.word = word
        self.label = label
        self.date = date
    }

    /// The presets offered for send later, with their names.
    static let presets: [(SnoozePreset, String)] = [
        (.thisEvening, "This evening"), (.tomorrow, "Tomorrow morning"), (.nextWeek, "Monday morning"),
    ]

    /// The choices at `now` in `timeZone` (this evening left out once it is under an hour away).
    static func choices(now: Date, timeZone: TimeZone) -> [SendLaterChoice] {
        presets.compactMap { preset, label in
            preset.time(now: now, timeZone: timeZone)?.date.map { SendLaterChoice(word: preset.rawValue, label: label, date: $0) }
        }
    }

    /// The time a preset's word names at `now`; nil for any other text.
    static func date(word: String, now: Date, timeZone: TimeZone) -> Date? {
        guard let preset = SnoozePreset(word: word), preset != .someday else { return nil }
        return preset.time(now: now, timeZone: timeZone)?.date
    }
}
