import VaultMailCore

/// The changes done on this computer that wait for the server (issue 29), at the foot of the
/// sidebar: "2 changes waiting for the server", the changes themselves on demand. Nothing while
/// none wait. The sidebar is read again at every change, so it counts down as they are replayed.
struct PendingChangesView {
    var changes: [PendingChange]

    func render() -> Markup {
        guard let text = PendingChanges.waitingText(changes.count) else { return .empty }
        struct Model { var icon: Markup; var text: String; var items: [String] }
        return Self.template.render(Model(icon: Icon.offline.svg(), text: text, items: changes.map(\.summary)))
    }

    private static let template = Template("""
        <div class="pending-changes" id="pending-changes" role="status"><details><summary>{{{icon}}}<span class="pending-count">{{text}}</span></summary>\
        <p>Done on this computer; VaultMail does them on the server, in this order, as soon as it can reach it.</p>\
        <ul>{{#items}}<li>{{.}}</li>{{/items}}</ul></details></div>
        """)
}
