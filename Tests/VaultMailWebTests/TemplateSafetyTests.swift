import Foundation
import Testing
import VaultMailCore
@testable import VaultMailWeb

/// Pages that cannot be injected by construction (issue 28): every page is a Mustache template
/// whose `{{values}}` are escaped; markup goes in unescaped only through the reviewed slots below,
/// and only as a `Markup` (a rendered template, the sanitizer's output, an icon).
@Suite("Web pages escape by construction (issue 28)")
struct TemplateSafetyTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/VaultMailWeb")

    /// Every unescaped slot of the web app's templates, by file, as reviewed: each reads a
    /// `Markup` (a sub-template, an icon, the sanitizer's output, a document's body). A new one
    /// fails this test until it is reviewed and added here.
    static let reviewedRawSlots: [String: Set<String>] = [
        "AI/AIModelsView.swift": ["actions", "backIcon", "models", "offline", "problem", "progress", "removal", "writing"],
        "AI/AIOnboardingView.swift": ["actions", "problem", "progress"],
        "Accounts/AccountSettingsView.swift": ["backIcon", "problems", "signInAgain", "syncWindow"],
        "Accounts/OnboardingView.swift": ["caFile", "check", "client", "command", "detail", "email", "fields", "first", "name", "oauth",
                                          "problems", "screen", "second", "servers", "syncWindow"],
        "Compose/ComposerView.swift": ["attachments", "backIcon", "copies", "crypto", "from", "icon", "problem", "sendLater", "to", "trashIcon"],
        "Compose/SendLaterMenu.swift": ["icon"],
        "Attachments/AttachmentsView.swift": ["icon", "zipIcon"],
        "Pages/ConversationView.swift": ["actions", "attachments", "backIcon", "body", "buttons", "category", "clipIcon",
                                         "draftForms", "editIcon", "icon", "inner", "messages", "moreIcon", "move", "mute", "older", "replies", "replyBar", "shieldIcon",
                                         "snooze", "sparkle", "summary", "trashIcon", "unsubscribe", "watch", "followUp"],
        "Pages/MessageFrame.swift": ["body"],
        "Pages/MailPage.swift": ["composeIcon", "connection", "conversation", "icon", "keyboardIcon", "list", "menuIcon", "settingsIcon", "sidebar"],
        "Pages/Pages.swift": ["body"],
        "Pages/SidebarView.swift": ["composeIcon", "icon", "pending"],
        "Pages/PendingChangesView.swift": ["icon"],
        "Pages/ProblemView.swift": ["detail"],
        "Pages/ThreadListView.swift": ["archive", "avatars", "buttons", "clipIcon", "delete", "detail", "empty", "head", "highlight", "icon", "muteIcon",
                                       "markAll", "move", "noticeDetail", "read", "rows", "snooze", "starIcon", "toolbar", "unreadIcon", "unsubscribeIcon"],
        "Pages/SnoozeMenu.swift": ["icon"],
        "Pages/ToolButton.swift": ["icon"],
        "Rendering/PlainTextRenderer.swift": ["html"],
        "Settings/SettingsView.swift": ["accounts", "backIcon", "categories", "content", "details", "inner", "quiet", "sections", "servers"],
        "Subscriptions/SubscriptionsView.swift": ["backIcon"],
        "Writing/ReplySuggestionsView.swift": ["body", "failure", "icon", "notice"],
        "Writing/SummaryPanel.swift": ["byline", "failure", "icon", "text"],
    ]

    static func swiftFiles() throws -> [(path: String, text: String)] {
        let enumerator = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        return try enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map { url in
            (String(url.path.dropFirst(sources.path.count + 1)), try String(contentsOf: url, encoding: .utf8))
        }.sorted { $0.path < $1.path }
    }

    @Test("Every unescaped insertion point ({{{name}}}, {{&name}}) is on the reviewed list, and every listed one still exists")
    func rawSlotsAreReviewed() throws {
        var found: [String: Set<String>] = [:]
        for file in try Self.swiftFiles() where file.path != "Pages/Template.swift" {
            let slots = Template.rawSlots(in: file.text)
            if !slots.isEmpty { found[file.path] = slots }
        }
        #expect(found == Self.reviewedRawSlots)
    }

    @Test("Page code builds no markup by hand: no HTML.escape, no Mustache template outside Template, no Markup from a string")
    func noHandBuiltMarkup() throws {
        for file in try Self.swiftFiles() {
            #expect(!file.text.contains("HTML.escape"), "\(file.path)")
            if file.path != "Pages/Template.swift" {
                #expect(!file.text.contains("{{="), "\(file.path) changes Mustache's delimiters")
                #expect(!file.text.contains("MustacheTemplate("), "\(file.path) compiles a template that does not escape by our rules")
                #expect(!file.text.contains("import Mustache"), "\(file.path)")
                #expect(!file.text.contains("Markup(trusted"), "\(file.path)")
            }
            // JSON is encoded from Codable types, never put together by hand.
            if !file.path.hasPrefix("Assets/") {
                #expect(!file.text.contains(#""{\""#) && !file.text.contains(#"\\\""#), "\(file.path) writes JSON by hand")
            }
        }
    }

    @Test("Values are escaped for text and attributes alike, one Unicode scalar at a time (a quote with a combining mark too)")
    func escaping() {
        struct Model { var value: String }
        let template = Template(#"<a title="{{value}}" data-x='{{value}}'>{{value}}</a>"#)
        let hostile = "\"\u{301} onmouseover=alert(1) x='\u{301}<script>&amp;"
        let html = template.render(Model(value: hostile)).html
        #expect(!html.contains("\"\u{301}") && !html.contains("'\u{301}") && !html.contains("<script"))
        #expect(html.contains("&quot;\u{301} onmouseover=alert(1) x=&#39;\u{301}&lt;script&gt;&amp;amp;"))
    }

    @Test("An unescaped slot that would read a String instead of Markup is refused before anything is written")
    func rawSlotsReadMarkupOnly() async {
        await #expect(processExitsWith: .failure) {
            struct Model { var body: String }
            _ = Template("<p>{{{body}}}</p>").render(Model(body: "<script>alert(1)</script>"))
        }
    }
}
