import Foundation
import VaultMailCore

extension ConversationView {
    /// "Remind me if nobody answers" (issue 33) in the More menu of a conversation the user
    /// wrote in: the choices, or the reminder set with Cancel. Buttons of the conversation's
    /// form (`one=remind:3d:THREAD`, `one=unremind:THREAD`), so they work without the script.
    func followUpItems() -> Markup {
        guard offersFollowUp else { return .empty }
        if let reminder = followUp {
            struct Model { var text: String; var thread: String }
            return Self.remindedTemplate.render(Model(text: "Reminder \(dates.string(for: reminder.due)) if nobody answers", thread: thread.id))
        }
        struct Choice { var value: String; var label: String }
        struct Model { var choices: [Choice] }
        return Self.remindTemplate.render(Model(choices: FollowUp.presets.map {
            Choice(value: "remind:\($0.text):\(thread.id)", label: "Remind me \($0.label) if nobody answers")
        }))
    }

    private static let remindTemplate = Template("""
        <div class="follow-up" role="group" aria-label="Follow-up reminder">\
        {{#choices}}<button class="menu-item" name="one" value="{{value}}">{{label}}</button>{{/choices}}</div>
        """)

    private static let remindedTemplate = Template("""
        <div class="follow-up" role="group" aria-label="Follow-up reminder"><span class="menu-note">{{text}}</span>\
        <button class="menu-item" name="one" value="unremind:{{thread}}">Cancel the reminder</button></div>
        """)
}
