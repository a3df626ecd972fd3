import Foundation
import Testing
import VaultMailCore
import VaultMailDesktop
import VaultMailNotifications
import VaultMailStore
import VaultMailTesting

@MainActor
@Suite("DBusNotificationCenter against a real dbus-daemon (NOTIF-04, 05, 06, 16, 18)", .serialized)
struct DBusNotificationCenterTests {
    @Test("NOTIF-04: Notify gets the exact arguments and hint types for an email")
    func notifyArguments() async throws {
        let desktop = try await DesktopFixture()
        let email = try await desktop.email(1, thread: "T-1", subject: "Meeting Tomorrow", snippet: "Hi team, budget review")
        await desktop.sync([email])
        let call = try await desktop.notifyCall()
        #expect(call["app_name"] as? String == "VaultMail")
        #expect(call["replaces_id"] as? Int == 0)
        #expect(call["app_icon"] as? String == "mail-message-new")
        #expect(call["summary"] as? String == "Ada Lovelace")
        #expect(call["body"] as? String == "<b>Meeting Tomorrow</b>\nHi team, budget review")
        #expect(call["actions"] as? [String] == ["default", "Open", "MARK_READ_ACTION", "Mark Read", "ARCHIVE_ACTION", "Archive",
                                                  "DELETE_ACTION", "Delete", "inline-reply", "Reply"])
        #expect(call["expire_timeout"] as? Int == -1)
        let hints = try #require(call["hints"] as? [String: [String: Any]])
        #expect(hints["category"]?["type"] as? String == "String")
        #expect(hints["category"]?["value"] as? String == "email.arrived")
        #expect(hints["desktop-entry"]?["value"] as? String == "vaultmail")
        #expect(hints["urgency"]?["type"] as? String == "Byte")
        #expect(hints["urgency"]?["value"] as? Int == 1)
        #expect(hints["x-kde-reply-placeholder-text"]?["value"] as? String == "Type your reply...")
        #expect(hints["x-dunst-stack-tag"]?["value"] as? String == "T-1")
        #expect(desktop.center.capabilities.contains("inline-reply"))
        #expect(await desktop.center.deliveredNotifications().map(\.request.identifier) == ["email-\(email.id)"])
    }

    @Test("NOTIF-05: a second mail in a thread replaces its notification in place, newest on top, \"and 1 more\"")
    func threadReplacement() async throws {
        let desktop = try await DesktopFixture()
        let older = try await desktop.email(1, thread: "T", subject: "First", snippet: "one", secondsAgo: 60)
        await desktop.sync([older])
        let first = try await desktop.notifyCall()
        let newer = try await desktop.email(2, thread: "T", fromName: "Grace", subject: "Second", snippet: "two", secondsAgo: 10)
        await desktop.sync([newer])
        let second = try await desktop.notifyCall(2)
        #expect(second["replaces_id"] as? Int == first["id"] as? Int)
        #expect(second["summary"] as? String == "Grace")
        #expect(second["body"] as? String == "<b>Second</b>\ntwo\n<i>and 1 more</i>")
        let other = try await desktop.email(3, thread: "U", secondsAgo: 5)
        await desktop.sync([other])
        #expect(try await desktop.notifyCall(3)["replaces_id"] as? Int == 0)
        #expect(await desktop.center.deliveredNotifications().count == 3)
    }

    @Test("NOTIF-18: removing a thread's notifications closes its one server notification")
    func closeByThread() async throws {
        let desktop = try await DesktopFixture()
        let a = try await desktop.email(1, thread: "A", secondsAgo: 20)
        let b = try await desktop.email(2, thread: "A", secondsAgo: 10)
        let c = try await desktop.email(3, thread: "C", secondsAgo: 5)
        await desktop.sync([a, b, c])
        let threadA = try await desktop.notifyCall(2)
        await desktop.app.notificationService.removeNotifications(forThreadId: "A")
        let close = try await desktop.server!.waitForCall("CloseNotification")
        #expect(close["id"] as? Int == threadA["id"] as? Int)
        #expect(await desktop.center.deliveredNotifications().map(\.request.content.threadIdentifier) == ["C"])
    }

    @Test("NOTIF-04: body text is markup-escaped when the server renders markup, sent as is when not")
    func markupEscaping() async throws {
        let desktop = try await DesktopFixture()
        await desktop.sync([try await desktop.email(1, subject: "Q&A <draft>", snippet: "1 < 2 & 3 > 2")])
        #expect(try await desktop.notifyCall()["body"] as? String == "<b>Q&amp;A &lt;draft&gt;</b>\n1 &lt; 2 &amp; 3 &gt; 2")
        let plain = try await DesktopFixture(capabilities: ["actions", "body"])
        await plain.sync([try await plain.email(1, subject: "Q&A <draft>", snippet: "1 < 2")])
        #expect(try await plain.notifyCall()["body"] as? String == "Q&A <draft>\n1 < 2")
    }

    @Test("AC-N-20: the default action opens the right thread through Conversations: read in the store, its notification closed")
    func defaultAction() async throws {
        let desktop = try await DesktopFixture()
        let email = try await desktop.email(1, thread: "T-open")
        await desktop.sync([email])
        let id = try #require(try await desktop.notifyCall()["id"] as? Int)
        try await desktop.server!.emitAction(id: UInt32(id), key: "default")
        #expect(try await desktop.waitForOutcome() == .openedThread(threadId: "T-open"))
        #expect(desktop.app.notificationSyncCoordinator.pendingThreadNavigation == "T-open")
        #expect(try await desktop.server!.waitForCall("CloseNotification")["id"] as? Int == id)
        try await waitUntil("the thread marked read on open") { try await desktop.emails.getThread(id: "T-open")?.unreadCount == 0 }
    }

    @Test("AC-N-16/17/18: Mark Read, Archive and Delete reach the handler for the right thread and change the store",
          arguments: [AppConstants.notificationActionMarkRead, AppConstants.notificationActionArchive, AppConstants.notificationActionDelete])
    func threadActions(action: String) async throws {
        let desktop = try await DesktopFixture()
        let email = try await desktop.email(1, thread: "T-act")
        await desktop.sync([email])
        let id = try #require(try await desktop.notifyCall()["id"] as? Int)
        try await desktop.server!.emitAction(id: UInt32(id), key: action)
        let outcome = try await desktop.waitForOutcome()
        switch action {
        case AppConstants.notificationActionMarkRead:
            #expect(outcome == .markedRead(threadId: "T-act"))
            #expect(try await desktop.emails.getThread(id: "T-act")?.unreadCount == 0)
        case AppConstants.notificationActionArchive:
            #expect(outcome == .archived(threadId: "T-act"))
            #expect(try await desktop.emails.getEmail(id: email.id)?.folderTypes == [.archive])
        default:
            #expect(outcome == .deleted(threadId: "T-act"))
            #expect(try await desktop.emails.getEmail(id: email.id)?.folderTypes == [.trash])
        }
        #expect(try await desktop.server!.waitForCall("CloseNotification")["id"] as? Int == id)
        #expect(desktop.app.notificationService.badgeCount == 0)
    }

    @Test("AC-N-19: an inline reply's text arrives and is sent as a reply to the newest email")
    func inlineReply() async throws {
        let desktop = try await DesktopFixture()
        let email = try await desktop.email(1, thread: "T-r", from: "grace@example.com", subject: "Lunch?")
        await desktop.sync([email])
        let id = try #require(try await desktop.notifyCall()["id"] as? Int)
        try await desktop.server!.emitReply(id: UInt32(id), text: "Yes, at noon")
        #expect(try await desktop.waitForOutcome() == .replied(draftId: "draft-1"))
        let draft = try #require(await desktop.compose.drafts.first)
        // Written by Compose.answer, as the tool's and the web composer's replies (issue 28): the
        // sender as recipient, the typed text first, then the attribution and the quote.
        #expect(draft.toAddresses.count == 1 && draft.toAddresses.first?.hasSuffix("grace@example.com>") == true)
        #expect(draft.subject == "Re: Lunch?")
        #expect(draft.bodyPlain.hasPrefix("Yes, at noon"))
        #expect(draft.bodyPlain.contains("wrote:"))
        #expect(draft.inReplyTo == email.messageId)
        #expect(await desktop.compose.sent == ["draft-1"])
    }

    @Test("Issue 16: suggested replies are buttons after Reply, and pressing one sends its text as the reply")
    func suggestedReplies() async throws {
        let desktop = try await DesktopFixture()
        let email = try await desktop.email(1, thread: "T-s", from: "grace@example.com", subject: "Lunch?")
        await desktop.sync([email])
        let first = try await desktop.notifyCall()
        var request = NotificationContentBuilder.request(for: email)
        request.content.suggestedReplies = ["Yes, noon works for me.", "Sorry, I can't make it tomorrow; could we find another day this week?"]
        request.content.sound = .none
        try await desktop.center.add(request)
        let call = try await desktop.notifyCall(2)
        #expect(call["replaces_id"] as? Int == first["id"] as? Int, "shown again in place")
        #expect((call["actions"] as? [String])?.suffix(6) == [
            "inline-reply", "Reply", "reply-suggestion-0", "↩ Yes, noon works for me.",
            "reply-suggestion-1", "↩ Sorry, I can't make it tomorrow; could we find…",
        ])
        let hints = try #require(call["hints"] as? [String: [String: Any]])
        #expect(hints["suppress-sound"]?["value"] as? Bool == true)
        try await desktop.server!.emitAction(id: UInt32(call["id"] as! Int), key: "reply-suggestion-0")
        #expect(try await desktop.waitForOutcome() == .replied(draftId: "draft-1"))
        let draft = try #require(await desktop.compose.drafts.first)
        #expect(draft.bodyPlain.hasPrefix("Yes, noon works for me.") && draft.bodyPlain.contains("wrote:"), "written by Compose.answer")
        #expect(draft.toAddresses.count == 1 && draft.toAddresses.first?.hasSuffix("grace@example.com>") == true)
    }

    @Test("Without inline-reply, Reply is an ordinary action and the response asks to compose")
    func replyWithoutInline() async throws {
        let desktop = try await DesktopFixture(capabilities: ["actions", "body"])
        let email = try await desktop.email(1, thread: "T-c")
        await desktop.sync([email])
        let call = try await desktop.notifyCall()
        #expect((call["actions"] as? [String])?.suffix(2) == ["REPLY_ACTION", "Reply"])
        try await desktop.server!.emitAction(id: UInt32(call["id"] as! Int), key: "REPLY_ACTION")
        #expect(try await desktop.waitForOutcome() == .composeRequested(emailId: email.id))
        #expect(desktop.app.notificationSyncCoordinator.pendingThreadNavigation == "T-c")
    }

    @Test("Signals about other applications' notifications are ignored; NotificationClosed prunes ours")
    func foreignAndClosed() async throws {
        let desktop = try await DesktopFixture()
        let email = try await desktop.email(1)
        await desktop.sync([email])
        let id = try #require(try await desktop.notifyCall()["id"] as? Int)
        try await desktop.server!.emitAction(id: 999, key: "default")
        try await desktop.server!.emitClosed(id: UInt32(id))
        try await waitUntil { await desktop.center.deliveredNotifications().isEmpty }
        #expect(desktop.app.notificationResponseHandler.lastOutcome == nil)
    }

    @Test("NOTIF-16: the badge is a LauncherEntry Update (count int64, count-visible bool), and Query answers it")
    func badge() async throws {
        let desktop = try await DesktopFixture()
        let email = try await desktop.email(1)
        await desktop.sync([email])
        let update = try await desktop.server!.waitForEvent { event in
            event["event"] as? String == "launcher-update"
                && ((event["properties"] as? [String: [String: Any]])?["count"]?["value"] as? Int) == 1
        }
        #expect(update["app_uri"] as? String == "application://vaultmail.desktop")
        let properties = try #require(update["properties"] as? [String: [String: Any]])
        #expect(properties["count"]?["type"] as? String == "Int64")
        #expect(properties["count-visible"]?["type"] as? String == "Boolean")
        #expect(properties["count-visible"]?["value"] as? Bool == true)
        let name = try await desktop.center.uniqueBusName()
        try await desktop.server!.command(["query_launcher": ["destination": name, "path": "/com/vaultmail/LauncherEntry"]])
        let reply = try await desktop.server!.waitForEvent { $0["event"] as? String == "query-reply" }
        #expect(reply["types"] as? [String] == ["String", "Dictionary"])
        let queried = try #require(reply["properties"] as? [String: [String: Any]])
        #expect(queried["count"]?["value"] as? Int == 1)
        #expect(queried["count"]?["type"] as? String == "Int64")
    }

    @Test("A restarted notification server is detected: old server ids are forgotten")
    func serverRestart() async throws {
        let desktop = try await DesktopFixture()
        await desktop.sync([try await desktop.email(1)])
        _ = try await desktop.notifyCall()
        desktop.server!.stop()
        desktop.server = try await RecordingNotificationServer.start(on: desktop.bus)
        try await waitUntil { await desktop.center.deliveredNotifications().isEmpty }
        await desktop.sync([try await desktop.email(2, thread: "thread-acct-work-1")])
        #expect(try await desktop.notifyCall()["replaces_id"] as? Int == 0)
    }

    /// Receives the responses of a centre started after the one that posted (a restarted daemon).
    final class RecordingDelegate: NotificationCenterDelegate {
        var responses: [NotificationResponse] = []
        func didReceive(_ response: NotificationResponse) async { responses.append(response) }
        func willPresent(_ notification: DeliveredNotification) -> NotificationPresentationOptions { [.banner] }
    }

    @Test("AC-N-20 / E-12: a click on a notification an earlier process posted reaches the next one with its conversation; mail read since withdraws it")
    func coldStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-remembered-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("notifications.json")
        let desktop = try await DesktopFixture(rememberedIn: file)
        await desktop.sync([try await desktop.email(1, thread: "T-cold", subject: "Cold start")])
        let id = try #require(try await desktop.notifyCall()["id"] as? Int)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "mail subjects are the user's alone")

        // The next process: the same bus and server, nothing in memory.
        let next = DBusNotificationCenter(configuration: desktop.configuration)
        let delegate = RecordingDelegate()
        next.setDelegate(delegate)
        #expect(try await next.requestAuthorization(options: [.alert]))
        #expect(await next.deliveredNotifications().map(\.request.content.userInfo.threadId) == ["T-cold"])
        try await desktop.server!.emitAction(id: UInt32(id), key: "default")
        try await waitUntil { !delegate.responses.isEmpty }
        #expect(delegate.responses.first?.actionIdentifier == NotificationResponse.defaultActionIdentifier)
        #expect(delegate.responses.first?.userInfo.threadId == "T-cold")
        // It can withdraw what the earlier process posted, and then remembers nothing.
        await next.removeDeliveredNotifications(withIdentifiers: [NotificationRequest.identifier(forEmailId: delegate.responses[0].userInfo.emailId)])
        #expect(try await desktop.server!.waitForCall("CloseNotification")["id"] as? Int == id)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("E-12: notifications remembered from a server that has since restarted are not taken in (its ids are someone else's now)")
    func coldStartAfterServerRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vaultmail-remembered-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("notifications.json")
        let desktop = try await DesktopFixture(rememberedIn: file)
        await desktop.sync([try await desktop.email(1, thread: "T-old")])
        _ = try await desktop.notifyCall()
        let remembered = try Data(contentsOf: file)
        desktop.server!.stop()
        desktop.server = try await RecordingNotificationServer.start(on: desktop.bus)
        // As a daemon that stopped before the server did would have left it.
        try await waitUntil { await desktop.center.deliveredNotifications().isEmpty }
        try remembered.write(to: file)
        let next = DBusNotificationCenter(configuration: desktop.configuration)
        #expect(try await next.requestAuthorization(options: [.alert]))
        #expect(await next.deliveredNotifications().isEmpty)
    }
}
