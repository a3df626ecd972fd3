import Foundation
import VaultMailCore

/// The Snooze menu of a conversation's toolbar and of the list's (issue 33): a `<details>`
/// (it opens without the script; `b` opens it), the presets with the times they mean now in the
/// reader's language, and a date-and-time picker. Each is a button of the form
/// (`one=snooze:tomorrow`, `one=snooze:pick` with the picker's `until`), handled by
/// `POST /actions` through Core's `Snooze`.
struct SnoozeMenu {
    var presets: [(preset: SnoozePreset, time: SnoozeTime)]
    var dates: RelativeDate
    var now: Date
    var timeZone: TimeZone
    /// The group's name for assistive technology: "Snooze conversation until".
    var label: String
    /// Keeps the picker's id unique on a page with two menus ("conv", "list").
    var scope: String

    func render() -> Markup {
        struct Choice { var word: String; var name: String; var text: String?; var iso: String? }
        struct Model { var label: String; var icon: Markup; var choices: [Choice]; var scope: String; var min: String }
        let choices = presets.map { preset, time in
            Choice(word: preset.rawValue, name: preset.label, text: time.date.map(dates.wakeTime),
                   iso: time.date.map { $0.formatted(.iso8601) })
        }
        return Self.template.render(Model(label: label, icon: Icon.snooze.svg(), choices: choices, scope: scope,
                                          min: Self.pickerValue(now.addingTimeInterval(60), timeZone: timeZone)))
    }

    private static let template = Template("""
        <details class="menu snooze-menu"><summary class="tool" title="Snooze (b)">{{{icon}}}<span class="tool-label">Snooze</span></summary>\
        <div class="menu-panel snooze-panel" role="group" aria-label="{{label}}">\
        {{#choices}}<button class="menu-item snooze-choice" name="one" value="snooze:{{word}}" data-until-text="{{#text}}{{text}}{{/text}}{{^text}}{{name}}{{/text}}">\
        <span class="snooze-name">{{name}}</span>{{#text}}<span class="snooze-time">{{text}}</span>{{/text}}</button>{{/choices}}\
        <div class="snooze-pick"><label for="snooze-until-{{scope}}">Pick a date and time</label>\
        <input type="datetime-local" id="snooze-until-{{scope}}" name="until" min="{{min}}" step="60">\
        <button class="menu-item" name="one" value="snooze:pick">Snooze until then</button></div>\
        </div></details>
        """)

    /// A `datetime-local` value, `2026-12-01T09:00`, in `timeZone`.
    static func pickerValue(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return formatter.string(from: date)
    }

    /// "Snoozed until Tue 8:00 AM" / "Snoozed until you unsnooze it".
    static func until(_ time: SnoozeTime, dates: RelativeDate) -> String {
        time.date.map { "Snoozed until \(dates.wakeTime($0))" } ?? "Snoozed someday: until you unsnooze it"
    }
}
