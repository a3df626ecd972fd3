import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// `GET /events`: server-sent events (changes, new mail, connection state).
    /// `POST /viewing`: which list (`box`) and conversation (`t`) a focused window shows
    /// (`state=open`), or that it no longer does (`state=closed`). The engine decides by it:
    /// the conversation on screen gets no banner at all, its folder type in-app banners only.
    func addEventRoutes(to router: Router<WebRequestContext>) {
        router.get("/events") { _, _ -> Response in
            let stream = await self.events.subscribe()
            let problem = await self.events.connectionProblem
            var response = Response(status: .ok, headers: [.contentType: "text/event-stream"], body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 3000\n\n" + Self.frame(.connection(problem: problem))))
                for await event in stream {
                    try await writer.write(ByteBuffer(string: Self.frame(event)))
                }
                try await writer.finish(nil)
            })
            response.headers[.cacheControl] = "no-store"
            return response
        }
        router.post("/viewing") { _, context -> Response in
            let threadId = context.form["t"] ?? ""
            let folderType = await self.folderType(onScreen: Mailbox(parameter: context.form["box"]))
            if context.form["state"] == "open" {
                await MainActor.run { self.mail.coordinator.folderShown(folderType) }
                if !threadId.isEmpty { await self.mail.coordinator.threadOpened(threadId) }
            } else {
                // Only what this page had on screen: another tab may show something since.
                await MainActor.run {
                    self.mail.coordinator.folderHidden(folderType)
                    if !threadId.isEmpty { self.mail.coordinator.threadClosed(threadId) }
                }
            }
            return Response(status: .noContent)
        }
    }

    /// The folder type a list shows, for the engine's `activeFolderType`; nil for the outbox,
    /// an unknown box or a folder that is gone.
    func folderType(onScreen mailbox: Mailbox?) async -> String? {
        switch mailbox {
        case .unified(let type): type.rawValue
        case .folder(let id): (try? await mail.emails.getFolder(id: id))??.folderType.rawValue
        case .outbox, nil: nil
        }
    }

    /// One event in the text/event-stream format.
    static func frame(_ event: WebEvent) -> String {
        switch event {
        case .changed:
            return "event: change\ndata: {}\n\n"
        case .ping:
            return ": ping\n\n"
        case .connection(let problem):
            return "event: connection\ndata: {\"problem\":\(problem.map(ActionOutcome.quote) ?? "null")}\n\n"
        case .newMail(let summaries):
            let items = summaries.map { summary in
                "{\"threadId\":\(ActionOutcome.quote(summary.threadId)),\"sender\":\(ActionOutcome.quote(summary.sender)),\"subject\":\(ActionOutcome.quote(summary.subject)),\"preview\":\(ActionOutcome.quote(summary.preview))}"
            }
            return "event: newmail\ndata: [\(items.joined(separator: ","))]\n\n"
        }
    }
}
