import VaultMailCore

/// A button of an action bar: a form's `action` with its icon, its label (hidden on a phone,
/// still read aloud) and its shortcut in the tooltip.
struct ToolButton {
    var action: String
    var label: String
    var icon: Icon
    var key = ""
    var on = false

    func render() -> String {
        let title = key.isEmpty ? label : "\(label) (\(key))"
        return "<button class=\"tool\(on ? " on" : "")\" name=\"action\" value=\"\(action)\" title=\"\(title)\">"
            + "\(icon.svg(filled: on && icon == .star))<span class=\"tool-label\">\(label)</span></button>"
    }

    /// A folder list and its Move button; empty when there is nowhere to move to.
    static func move(to folders: [Folder], id: String, label: String) -> String {
        guard !folders.isEmpty else { return "" }
        var out = "<label class=\"visually-hidden\" for=\"\(id)\">\(label)</label><select name=\"folder\" id=\"\(id)\">"
        out += "<option value=\"\" selected disabled>Move to…</option>"
        out += folders.map { "<option value=\"\(HTML.escape($0.id))\">\(HTML.escape($0.name))</option>" }.joined()
        return out + "</select>" + ToolButton(action: "move", label: "Move", icon: .move).render()
    }
}
