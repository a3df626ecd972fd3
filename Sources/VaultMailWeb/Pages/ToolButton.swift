import VaultMailCore

/// A button of an action bar: a form's `action` with its icon, its label (hidden on a phone,
/// still read aloud) and its shortcut in the tooltip.
struct ToolButton {
    var action: String
    var label: String
    var icon: Icon
    var key = ""
    var on = false

    func render() -> Markup {
        struct Model { var on: Bool; var action: String; var title: String; var icon: Markup; var label: String }
        return Self.template.render(Model(on: on, action: action, title: key.isEmpty ? label : "\(label) (\(key))",
                                          icon: icon.svg(filled: on && icon == .star), label: label))
    }

    private static let template = Template("""
        <button class="tool{{#on}} on{{/on}}" name="action" value="{{action}}" title="{{title}}">{{{icon}}}<span class="tool-label">{{label}}</span></button>
        """)

    /// A folder list and its Move button; empty when there is nowhere to move to.
    static func move(to folders: [Folder], id: String, label: String) -> Markup {
        guard !folders.isEmpty else { return .empty }
        struct Option { var id: String; var name: String }
        struct Model { var id: String; var label: String; var folders: [Option]; var button: Markup }
        return moveTemplate.render(Model(id: id, label: label, folders: folders.map { Option(id: $0.id, name: $0.name) },
                                         button: ToolButton(action: "move", label: "Move", icon: .move).render()))
    }

    private static let moveTemplate = Template("""
        <label class="visually-hidden" for="{{id}}">{{label}}</label><select name="folder" id="{{id}}">\
        <option value="" selected disabled>Move to…</option>\
        {{#folders}}<option value="{{id}}">{{name}}</option>{{/folders}}\
        </select>{{{button}}}
        """)
}
