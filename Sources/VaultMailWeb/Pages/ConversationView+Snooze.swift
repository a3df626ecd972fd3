import VaultMailCore

extension ConversationView {
    /// Snooze (issue 33): while the conversation is snoozed, when it comes back and Unsnooze;
    /// the menu either way (snoozing again changes the time).
    func snoozeControls() -> Markup {
        guard let snoozeMenu else { return .empty }
        guard let snoozedUntil else { return snoozeMenu.render() }
        struct Model { var text: String }
        return Self.snoozedTemplate.render(Model(text: SnoozeMenu.until(snoozedUntil, dates: dates)))
            + ToolButton(action: "unsnooze", label: "Unsnooze", icon: .unread).render() + snoozeMenu.render()
    }

    private static let snoozedTemplate = Template("""
        <span class="snoozed-note" role="note">{{text}}</span>
        """)
}
