/// `NestingLimiter`'s model of the HTML parser's stack of open elements, with every question the
/// tree builder asks of it ("is there a `<p>` in button scope?") answered in constant time, and
/// a count of the formatting elements the parser may reopen (which add to the depth).
struct OpenElements {
    /// An element's namespace: HTML, or SVG and MathML ("foreign content").
    enum Namespace { case html, svg, math }

    struct Entry {
        let name: String
        let roles: Role
        let namespace: Namespace
        var foreign: Bool { namespace != .html }
        /// SVG's foreignObject, desc and title, MathML's mi, mo, mn, ms and mtext: start tags
        /// inside them are HTML again.
        var integrationPoint: Bool { roles.contains(.integrationPoint) }
    }

    /// What an entry is, for the parser's questions; each role keeps the stack indexes holding it.
    struct Role: OptionSet {
        let rawValue: UInt32
        static let html = Role(rawValue: 1 << 0)
        static let integrationPoint = Role(rawValue: 1 << 1)
        static let paragraph = Role(rawValue: 1 << 2)
        static let listItem = Role(rawValue: 1 << 3)
        static let definitionItem = Role(rawValue: 1 << 4)
        static let heading = Role(rawValue: 1 << 5)
        static let tableCell = Role(rawValue: 1 << 6)
        static let tableRow = Role(rawValue: 1 << 7)
        /// table, tbody, thead, tfoot, tr, td, th, caption, colgroup.
        static let tableLike = Role(rawValue: 1 << 8)
        static let select = Role(rawValue: 1 << 9)
        static let template = Role(rawValue: 1 << 10)
        /// Anything but option and optgroup (what <select> may hold).
        static let notOption = Role(rawValue: 1 << 11)
        static let special = Role(rawValue: 1 << 12)
        /// Special, except address, div and p: ends the search for an open <li>, <dd> or <dt>.
        static let itemStop = Role(rawValue: 1 << 13)
        static let scopeBoundary = Role(rawValue: 1 << 14)
        static let buttonScopeBoundary = Role(rawValue: 1 << 15)
        static let listScopeBoundary = Role(rawValue: 1 << 16)
        static let tableScopeBoundary = Role(rawValue: 1 << 17)
        static let formatting = Role(rawValue: 1 << 18)
        static let marker = Role(rawValue: 1 << 19)
        static let count = 20
    }

    private(set) var entries: [Entry] = []
    /// For each role bit, the indexes of the entries having it, ascending.
    private var positions = [[Int]](repeating: [], count: Role.count)
    private var htmlNames: [String: [Int]] = [:]
    private var foreignNames: [String: [Int]] = [:]
    /// Formatting elements closed implicitly, which the parser reopens when text follows: one
    /// table per marker level (a cell, caption, object, ...), by tag and attributes as written,
    /// at most three alike (the parser's "Noah's Ark" rule), one `<a>`.
    private var pending: [[String: Int]] = [[:]]
    private var pendingTotal = 0

    var count: Int { entries.count }
    var top: Entry? { entries.last }
    /// The most elements the parser can have open: those modelled plus those it may reopen.
    var depth: Int { entries.count + pendingTotal }
    /// Formatting elements the parser may reopen.
    var pendingCount: Int { pendingTotal }

    /// How many formatting elements would become pending if the entries from `start` up were
    /// closed implicitly.
    func formattingCount(from start: Int) -> Int {
        (start..<entries.count).reduce(0) { $0 + (signatures[$1] != nil ? 1 : 0) }
    }

    func topmost(_ role: Role) -> Int? { positions[role.bitIndex].last }

    /// The topmost entry with `role` when no `stop` entry is above it (it may be one itself).
    func topmost(_ role: Role, above stop: Role) -> Int? {
        guard let index = topmost(role) else { return nil }
        return index >= (topmost(stop) ?? -1) ? index : nil
    }

    /// The topmost HTML element `name` when no `stop` entry is above it.
    func topmostNamed(_ name: String, above stop: Role) -> Int? {
        guard let index = htmlNames[name]?.last else { return nil }
        return index >= (topmost(stop) ?? -1) ? index : nil
    }

    /// The topmost foreign element `name` above every HTML element (what a foreign end tag closes).
    func topmostForeign(named name: String) -> Int? {
        guard let index = foreignNames[name]?.last else { return nil }
        return index > (topmost(.html) ?? -1) ? index : nil
    }

    /// Where the foreign elements on top begin: a break-out tag pops down to here.
    var foreignContentStart: Int { max(topmost(.html) ?? -1, topmost(.integrationPoint) ?? -1) + 1 }

    /// Whether the parser is in its "in select" mode: a `<select>` with only options above it.
    var inSelect: Bool {
        guard let select = topmost(.select) else { return false }
        return topmost(.notOption) == select
    }

    /// The open `<table>` table-scoped tags apply to.
    var tableInScope: Int? { topmostNamed("table", above: .tableScopeBoundary) }

    /// Whether the entry is a table part outside any cell, with no <select> or <template> above it.
    func isTableBody(at index: Int) -> Bool {
        guard ["table", "tbody", "thead", "tfoot", "tr", "colgroup"].contains(entries[index].name) else { return false }
        return (topmost(.select) ?? -1) < index && (topmost(.template) ?? -1) < index
    }

    mutating func push(_ name: String, traits: ElementTraits, namespace: Namespace, signature: String?) {
        let foreign = namespace != .html
        let roles = Self.roles(name, traits: traits, namespace: namespace)
        let index = entries.count
        entries.append(Entry(name: name, roles: roles, namespace: namespace))
        signatures.append(signature)
        for bit in 0..<Role.count where roles.rawValue & (1 << bit) != 0 { positions[bit].append(index) }
        if foreign { foreignNames[name, default: []].append(index) } else { htmlNames[name, default: []].append(index) }
        if roles.contains(.marker) { pending.append([:]) }
    }

    /// The tag-and-attributes key of each formatting entry (nil for the others).
    private var signatures: [String?] = []

    /// Pops the entries from the top down to `index`, included. Formatting elements popped on
    /// the way become pending (the parser may reopen them), except the one an end tag names.
    mutating func pop(to index: Int, explicitTarget: Bool) {
        while entries.count > index {
            let entry = entries.removeLast()
            let signature = signatures.removeLast()
            let position = entries.count
            for bit in 0..<Role.count where entry.roles.rawValue & (1 << bit) != 0 { positions[bit].removeLast() }
            if entry.foreign { foreignNames[entry.name]?.removeLast() } else { htmlNames[entry.name]?.removeLast() }
            if entry.roles.contains(.formatting), let signature, !(explicitTarget && position == index) {
                addPending(entry.name == "a" ? "a" : signature)
            }
            if entry.roles.contains(.marker), pending.count > 1 { mergeInnermostPendingLevel() }
        }
    }

    /// A new `<a>` makes the parser drop the previous one from its list.
    mutating func forgetPendingAnchor() {
        if let anchors = pending[pending.count - 1].removeValue(forKey: "a") { pendingTotal -= anchors }
    }

    private mutating func addPending(_ key: String) {
        let limit = key == "a" ? 1 : 3
        let current = pending[pending.count - 1][key, default: 0]
        guard current < limit else { return }
        pending[pending.count - 1][key] = current + 1
        pendingTotal += 1
    }

    /// A closed marker element: the parser clears what was pending inside it, unless that
    /// element was one it had ignored; kept (moved out) to stay an upper bound.
    private mutating func mergeInnermostPendingLevel() {
        let inner = pending.removeLast()
        pendingTotal -= inner.values.reduce(0, +)
        for (key, count) in inner {
            for _ in 0..<count { addPending(key) }
        }
    }

    private static func roles(_ name: String, traits: ElementTraits, namespace: Namespace) -> Role {
        var roles: Role = []
        if traits.contains(.special) {
            roles.insert(.special)
            if name != "address" && name != "div" && name != "p" { roles.insert(.itemStop) }
        }
        if traits.contains(.scopeBoundary) { roles.formUnion([.scopeBoundary, .buttonScopeBoundary, .listScopeBoundary]) }
        if name != "option" && name != "optgroup" { roles.insert(.notOption) }
        switch (namespace, name) {
        case (.html, _): break
        case (.svg, "foreignobject"), (.svg, "desc"), (.svg, "title"),
             (.math, "mi"), (.math, "mo"), (.math, "mn"), (.math, "ms"), (.math, "mtext"):
            return roles.union(.integrationPoint)
        default:
            return roles
        }
        roles.insert(.html)
        switch name {
        case "p": roles.insert(.paragraph)
        case "li": roles.insert(.listItem)
        case "dd", "dt": roles.insert(.definitionItem)
        case "button": roles.insert(.buttonScopeBoundary)
        case "ol", "ul": roles.insert(.listScopeBoundary)
        case "select": roles.insert(.select)
        case "template": roles.formUnion([.template, .tableScopeBoundary])
        case "table": roles.formUnion([.tableLike, .tableScopeBoundary])
        case "tr": roles.formUnion([.tableRow, .tableLike])
        case "td", "th": roles.formUnion([.tableCell, .tableLike])
        case "tbody", "thead", "tfoot", "caption", "colgroup": roles.insert(.tableLike)
        default: break
        }
        if traits.contains(.heading) { roles.insert(.heading) }
        if traits.contains(.formatting) { roles.insert(.formatting) }
        if traits.contains(.marker) { roles.insert(.marker) }
        return roles
    }
}

private extension OpenElements.Role {
    /// The index of the (single) bit of this role.
    var bitIndex: Int { rawValue.trailingZeroBitCount }
}
