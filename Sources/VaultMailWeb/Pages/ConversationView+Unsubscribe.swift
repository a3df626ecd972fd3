import Foundation
import VaultMailCore

extension ConversationView {
    /// The More menu's Unsubscribe (issue 33): a link to the question (`GET /unsubscribe`,
    /// asked in a dialog by the script) naming the sender and what will be sent, or
    /// "Unsubscribed …" once the person did (with Unsubscribe again when this message came
    /// after it: the sender did not stop); nothing when the sender offers no way VaultMail uses.
    func unsubscribeItem() -> Markup {
        guard let offer = unsubscribe else { return .empty }
        struct Done { var text: String }
        var note = Markup.empty
        if let date = offer.unsubscribedAt {
            let text = "Unsubscribed " + dates.string(for: date)
            guard offer.arrivedAfterUnsubscribing else { return Self.unsubscribedTemplate.render(Done(text: text)) }
            note = Self.unsubscribedTemplate.render(Done(text: text + "; this message came after it"))
        }
        if case .notOffered = offer.method { return note }
        struct Model { var id: String; var href: String; var confirm: String; var sender: String }
        return note + Self.unsubscribeTemplate.render(Model(
            id: offer.emailId, href: "/unsubscribe?id=\(WebForm.escape(offer.emailId))&return=\(WebForm.escape(here))",
            confirm: offer.confirmation, sender: offer.name))
    }

    private static let unsubscribeTemplate = Template("""
        <a class="menu-item unsubscribe-item" href="{{href}}" data-unsubscribe="{{id}}" data-confirm="{{confirm}}" \
        aria-label="Unsubscribe from {{sender}}">Unsubscribe</a>
        """)

    private static let unsubscribedTemplate = Template("""
        <span class="menu-note subs-done">{{text}}</span>
        """)
}
