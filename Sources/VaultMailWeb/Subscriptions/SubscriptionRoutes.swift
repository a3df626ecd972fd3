import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// `GET /subscriptions` (the page), `GET /unsubscribe?id=` (the question, for a browser
    /// without the script) and `POST /unsubscribe` (the action, through Core's `Unsubscribe`,
    /// the same as `vaultmail unsubscribe`; JSON `{succeeded, message, state}` for the script).
    func addSubscriptionRoutes(to router: Router<WebRequestContext>) {
        router.get("/subscriptions") { request, context -> Response in
            let query = try request.query(SubscriptionsQuery.self)
            guard let service = self.mail.unsubscribe else { return Pages.plain(.notFound, "Subscriptions are not available here.") }
            var notice = query.notice
            let items: [Subscription]
            do { items = try await service.subscriptions() } catch {
                items = []
                notice = "The subscriptions could not be read: \(PlainWords.of(error))"
            }
            return Pages.html(SubscriptionsView(
                items: items, sort: SubscriptionsView.Sort(rawValue: query.sort ?? "") ?? .volume, notice: notice,
                failed: query.failed == "1", csrf: self.csrf(context: context), dates: self.dates,
                display: await self.subscriptionsDisplay()).render())
        }
        router.get("/unsubscribe") { request, context -> Response in
            let query = try request.query(UnsubscribeQuery.self)
            let back = Self.unsubscribeReturn(query.return)
            guard let service = self.mail.unsubscribe else { return Pages.plain(.notFound, "Unsubscribing is not available here.") }
            do {
                let offer = try await service.offer(id: query.id ?? "")
                if case .notOffered(let reason) = offer.method {
                    return Pages.redirect(Self.withNotice(back, "Unsubscribing is not offered: \(reason)"))
                }
                return Pages.html(UnsubscribeConfirmView(offer: offer, returnTo: back, csrf: self.csrf(context: context),
                                                         display: await self.subscriptionsDisplay()).render())
            } catch {
                return Pages.redirect(Self.withNotice(back, "\(error)"))
            }
        }
        router.post("/unsubscribe") { request, context -> Response in
            let form = try context.form(UnsubscribeForm.self)
            let reply = await self.unsubscribe(id: form.id ?? "")
            if request.headers[.accept]?.contains("application/json") == true {
                return Pages.json(reply, status: reply.status)
            }
            return Pages.redirect(Self.withNotice(Self.unsubscribeReturn(form.return), reply.message))
        }
    }

    /// What the script reads after an Unsubscribe.
    struct UnsubscribeReply: Encodable {
        var succeeded: Bool
        var message: String
        /// "Unsubscribed Nov 28" once done.
        var state: String?
        var status: HTTPResponse.Status = .ok

        private enum CodingKeys: String, CodingKey { case succeeded, message, state }
    }

    func unsubscribe(id: String) async -> UnsubscribeReply {
        guard let service = mail.unsubscribe else {
            return UnsubscribeReply(succeeded: false, message: "Unsubscribing is not available here.", status: .notFound)
        }
        do {
            let result = try await service.unsubscribe(id: id)
            await events.publish(.changed)
            return UnsubscribeReply(succeeded: result.succeeded, message: result.message,
                                    state: result.succeeded ? "Unsubscribed " + dates.string(for: mail.clock.now) : nil)
        } catch let error as UnsubscribeError {
            return UnsubscribeReply(succeeded: false, message: error.description.prefix(1).uppercased() + error.description.dropFirst() + ".",
                                    status: .badRequest)
        } catch {
            return UnsubscribeReply(succeeded: false, message: "Not unsubscribed: \(PlainWords.of(error))", status: .internalServerError)
        }
    }

    private func subscriptionsDisplay() async -> Pages.Display {
        let general = await mail.preferences.general()
        return Pages.Display(theme: general.theme, density: general.listDensity)
    }

    /// Only the mail and the Subscriptions page are places to go back to.
    static func unsubscribeReturn(_ target: String?) -> String {
        if let target, target == "/subscriptions" || target.hasPrefix("/subscriptions?") { return "/subscriptions" }
        return safeReturn(target)
    }

    private struct SubscriptionsQuery: Decodable {
        var sort: String?
        var notice: String?
        var failed: String?
    }

    private struct UnsubscribeQuery: Decodable {
        var id: String?
        var `return`: String?
    }

    private struct UnsubscribeForm: Decodable {
        var id: String?
        var `return`: String?
    }
}
