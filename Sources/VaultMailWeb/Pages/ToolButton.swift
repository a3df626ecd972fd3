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

    /// The one Move control: a menu (a `<details>`, so it opens without the script) of the
    /// folders, each a button of the form (`one=move:FOLDER-ID`); empty when there is nowhere
    /// to move to.
    static func move(to folders: [Folder], label: String) -> Markup {
        guard !folders.isEmpty else { return .empty }
        struct Option { var value: String; var name: String }
        struct Model { var label: String; var icon: Markup; var folders: [Option] }
        return moveTemplate.render(Model(label: label, icon: Icon.move.svg(),
                                         folders: folders.map { Option(value: "move:\($0.id)", name: $0.name) }))
    }

    private static let moveTemplate = Template("""
        <details class="menu move-menu"><summary class="tool" title="{{label}}">{{{icon}}}<span class="tool-label">Move</span></summary>\
        <div class="menu-panel" role="group" aria-label="{{label}}">\
        {{#folders}}<button class="menu-item" name="one" value="{{value}}">{{name}}</button>{{/folders}}\
        </div></details>
        """)
}
