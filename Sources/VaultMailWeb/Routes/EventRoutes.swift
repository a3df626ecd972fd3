import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// `GET /events`: server-sent events (changes, new mail, connection state).
    /// `POST /viewing`: which conversation is open in a focused window (NOTIF-06f: its new mail
    /// raises an in-app banner instead of a desktop one), or that none is.
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
            let open = context.form["state"] == "open" && !threadId.isEmpty
            if open {
                await self.mail.coordinator.threadOpened(threadId)
            } else {
                // Only the conversation this page had open: another tab may have opened one since.
                await MainActor.run { self.mail.coordinator.threadClosed(threadId) }
            }
            return Response(status: .noContent)
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
            struct Connection: Encodable { var problem: String? }
            return "event: connection\ndata: \(Pages.jsonText(Connection(problem: problem)))\n\n"
        case .newMail(let summaries):
            return "event: newmail\ndata: \(Pages.jsonText(summaries))\n\n"
        }
    }
}
