import Foundation
import VaultMailCore

/// The composer's "Send later" menu beside Send (issue 33): a `<details>` (it opens without the
/// script) with Core's presets (`ComposeEmailService.sendLaterChoices()`) and the times they mean
/// now in the reader's language, and a date-and-time picker. Each is a submit button of the
/// composer's form posting to `/compose/send-later` (`at=tomorrow`, or `at=pick` with the
/// picker's `when`), which Core's `sendTime(from:)` reads as the tool's `--at` does.
struct SendLaterMenu {
    var choices: [SendLaterChoice]
    var dates: RelativeDate
    var now: Date
    var timeZone: TimeZone

    func render() -> Markup {
        struct Choice { var word: String; var label: String; var text: String; var iso: String }
        struct Model { var icon: Markup; var choices: [Choice]; var min: String }
        return Self.template.render(Model(
            icon: Icon.snooze.svg(),
            choices: choices.map { Choice(word: $0.word, label: $0.label, text: dates.wakeTime($0.date), iso: $0.date.formatted(.iso8601)) },
            min: SnoozeMenu.pickerValue(now.addingTimeInterval(60), timeZone: timeZone)))
    }

    private static let template = Template("""
        <details class="menu send-later-menu" id="send-later"><summary class="tool">{{{icon}}}<span>Send later</span></summary>\
        <div class="menu-panel send-later-panel" role="group" aria-label="Send later at">\
        {{#choices}}<button class="menu-item send-later-choice" type="submit" formaction="/compose/send-later" name="at" value="{{word}}">\
        <span class="snooze-name">{{label}}</span><span class="snooze-time"><time datetime="{{iso}}">{{text}}</time></span></button>{{/choices}}\
        <div class="snooze-pick"><label for="send-when">Pick a date and time</label>\
        <input type="datetime-local" id="send-when" name="when" min="{{min}}" step="60">\
        <button class="menu-item send-later-choice" type="submit" formaction="/compose/send-later" name="at" value="pick">Send then</button></div>\
        </div></details>
        """)
}
