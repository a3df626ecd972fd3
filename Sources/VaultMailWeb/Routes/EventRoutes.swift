import Foundation
import Hummingbird
import VaultMailCore
import VaultMailNotifications

extension WebApp {
    /// `GET /events`: server-sent events (changes, new mail, connection state).
    /// `POST /viewing`: which list (`box`) and conversation (`t`) a focused window shows
    /// (`state=open`), or that it no longer does (`state=closed`). The engine decides by it:
    /// the conversation on screen gets no banner at all, its folder type in-app banners only.
    func addEventRoutes(to router: Router<WebRequestContext>) {
        router.get("/events") { _, _ -> Response in
            let stream = await self.events.subscribe()
            let (problem, detail) = (await self.events.connectionProblem, await self.events.connectionDetail)
            var response = Response(status: .ok, headers: [.contentType: "text/event-stream"], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 3000\n\n" + Self.frame(.connection(problem: problem, detail: detail))))
                for await event in stream {
                    try await writer.write(ByteBuffer(string: Self.frame(event)))
                }
                try await writer.finish(nil)
            })
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.post("/viewing") { _, context -> Response in
            let form = try context.form(ViewingForm.self)
            let threadId = form.t ?? ""
            let folder = await self.folder(onScreen: Mailbox(parameter: form.box))
            if form.state == "open" {
                await MainActor.run { self.mail.coordinator.folderShown(folder) }
                if !threadId.isEmpty { await self.mail.coordinator.threadOpened(threadId) }
            } else {
                // Only what this page had on screen: another tab may show something since.
                await MainActor.run {
                    self.mail.coordinator.folderHidden(folder)
                    if !threadId.isEmpty { self.mail.coordinator.threadClosed(threadId) }
                }
            }
            return Response(status: .noContent)
        }
    }

    /// What a focused window posts to `/viewing`.
    private struct ViewingForm: Decodable {
        var t: String?
        var box: String?
        var state: String?
    }

    /// The folder a list shows, as the engine weighs it: every account's folders of a type, or
    /// one account's folder; nil for the Outbox, an unknown box or a folder that is gone.
    func folder(onScreen mailbox: Mailbox?) async -> FolderOnScreen? {
        switch mailbox {
        case .unified(let type):
            return FolderOnScreen(type: type)
        case .folder(let id):
            guard let found = try? await mail.mailboxes.folder(id: id) else { return nil }
            return FolderOnScreen(type: found.folderType, accountId: found.accountId)
        case .outbox, nil:
            return nil
        }
    }

    /// One event in the text/event-stream format.
    static func frame(_ event: WebEvent) -> String {
        switch event {
        case .changed:
            return "event: change\ndata: {}\n\n"
        case .ping:
            return ": ping\n\n"
        case .connection(let problem, let detail):
            struct Connection: Encodable { var problem: String?; var detail: String? }
            return "event: connection\ndata: \(Pages.jsonText(Connection(problem: problem, detail: detail)))\n\n"
        case .notice(let text):
            struct Notice: Encodable { var text: String }
            return "event: notice\ndata: \(Pages.jsonText(Notice(text: text)))\n\n"
        case .newMail(let summaries):
            return "event: newmail\ndata: \(Pages.jsonText(summaries))\n\n"
        }
    }
}
