/// The app's icons: inline SVG, drawn with the text colour, hidden from assistive technology
/// (every icon button has its own label).
enum Icon: String {
    case star = "M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6L2.5 9.4l6.6-.8z"
    case paperclip = "M16.5 6.5l-7.8 7.8a2 2 0 002.8 2.8l7.8-7.8a4 4 0 00-5.7-5.7L5.8 11.4a6 6 0 008.5 8.5l6.4-6.4"
    case archive = "M3 4h18v4H3zM5 8v12h14V8M10 12h4"
    case trash = "M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6"
    case read = "M3 9l9 6 9-6M3 9v11h18V9M3 9l9-6 9 6"
    case unread = "M3 6h18v12H3zM3 6l9 7 9-7"
    case mute = "M6 8a6 6 0 0111-3M18 12v3l2 2H8M4 4l16 16M10 20a2 2 0 004 0"
    case unsubscribe = "M3 6h18v7M3 6v12h11M3 6l9 7 9-7M16 16l5 5M21 16l-5 5"
    case bell = "M6 8a6 6 0 0112 0v5l2 3H4l2-3zM10 20a2 2 0 004 0"
    case vip = "M12 3l3 6 6 .9-4.5 4.3 1 6.3L12 17.5 6.5 20.5l1-6.3L3 9.9 9 9z"
    case back = "M15 5l-7 7 7 7"
    case move = "M3 6h6l2 2h10v11H3zM12 13h6M15 10l3 3-3 3"
    case keyboard = "M3 6h18v12H3zM7 10h.01M11 10h.01M15 10h.01M7 14h10"
    case reply = "M10 8L4 13l6 5M4 13h10a6 6 0 016 6"
    case replyAll = "M11 8l-5 5 5 5M7 8l-5 5 5 5M6 13h8a6 6 0 016 6"
    case forward = "M14 8l6 5-6 5M20 13H10a6 6 0 00-6 6"
    case compose = "M4 20h4L19 9l-4-4L4 16zM13 7l4 4"
    case settings = "M12 15a3 3 0 100-6 3 3 0 000 6zM19.4 15a1.7 1.7 0 00.3 1.8l.1.1a2 2 0 11-2.8 2.8l-.1-.1a1.7 1.7 0 00-1.8-.3 1.7 1.7 0 00-1 1.5V21a2 2 0 11-4 0v-.1a1.7 1.7 0 00-1.1-1.5 1.7 1.7 0 00-1.8.3l-.1.1a2 2 0 11-2.8-2.8l.1-.1a1.7 1.7 0 00.3-1.8 1.7 1.7 0 00-1.5-1H3a2 2 0 110-4h.1a1.7 1.7 0 001.5-1.1 1.7 1.7 0 00-.3-1.8l-.1-.1a2 2 0 112.8-2.8l.1.1a1.7 1.7 0 001.8.3H9a1.7 1.7 0 001-1.5V3a2 2 0 114 0v.1a1.7 1.7 0 001 1.5 1.7 1.7 0 001.8-.3l.1-.1a2 2 0 112.8 2.8l-.1.1a1.7 1.7 0 00-.3 1.8V9a1.7 1.7 0 001.5 1H21a2 2 0 110 4h-.1a1.7 1.7 0 00-1.5 1z"
    case sparkle = "M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9zM18.5 15l.8 2.2 2.2.8-2.2.8-.8 2.2-.8-2.2-2.2-.8 2.2-.8z"
    case more = "M5 12h.01M12 12h.01M19 12h.01"
    case menu = "M4 6h16M4 12h16M4 18h16"
    case offline = "M2 8a15 15 0 0120 0M5 12a10 10 0 0114 0M8.5 15.5a5 5 0 017 0M12 19h.01M3 3l18 18"
    case download = "M12 4v11M7 10l5 5 5-5M5 20h14"
    case calendar = "M4 6h16v14H4zM4 10h16M8 3v5M16 3v5"
    case snooze = "M12 21a8 8 0 100-16 8 8 0 000 16zM12 9v4l2.5 2.5M5 3L2 6M19 3l3 3"
    case shield = "M12 3l8 3v6c0 5-3.4 8.3-8 9-4.6-.7-8-4-8-9V6zM8.5 12l2.5 2.5 4.5-5"

    /// The icon as markup; `filled` fills the shape (a starred star).
    func svg(filled: Bool = false) -> Markup {
        struct Model { var fill: String; var path: String }
        return Self.template.render(Model(fill: filled ? "currentColor" : "none", path: rawValue))
    }

    private static let template = Template("""
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="{{fill}}" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"><path d="{{path}}"/></svg>
        """)
}
