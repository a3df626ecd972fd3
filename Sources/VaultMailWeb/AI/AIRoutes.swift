import Foundation
import Hummingbird
import VaultMailCore

extension WebApp {
    /// Settings → On-device AI (`/settings/ai`), its status for the script, Download, Cancel,
    /// Remove (asked first), and the onboarding step `/welcome/ai` (AC-A-03, AC-A-08). With
    /// no `models` (a process that manages none) the pages send the user on to the settings or
    /// the mail.
    func addAIRoutes(to router: Router<WebRequestContext>, models: (any AIModelAdministration)?) {
        let script = AIModelsScript.asset
        router.get(RouterPath(script.path)) { _, _ -> Response in
            var response = Response(status: .ok, headers: [.contentType: script.contentType],
                                    body: ResponseBody(byteBuffer: ByteBuffer(string: script.content)))
            response.headers[.cacheControl] = "public, max-age=31536000, immutable"
            return response
        }
        router.get("/settings/ai") { request, context -> Response in
            guard let models else { return Self.noModels }
            let query = try request.query(AIModelForm.self)
            var view = AIModelsView(
                models: await models.models(), storageUsed: await models.storageUsed(), directory: models.modelsDirectory,
                confirmRemoval: nil, notice: query.notice, csrf: self.csrf(context: context), display: await self.display())
            if self.mail.summaries != nil { view.autoSummarize = await self.mail.preferences.autoSummarize() }
            return Pages.html(view.render())
        }
        router.post("/settings/ai/writing") { request, context -> Response in
            let on = try context.form(AIModelForm.self).autoSummarize == "1"
            await self.mail.preferences.setAutoSummarize(on)
            let message = on ? "Saved: conversations of 3 or more messages are summarized when you open them."
                : "Saved: conversations are summarized when you ask (Summarize)."
            if request.headers[.accept]?.contains("application/json") == true { return Pages.json(JSONReply.Message(message: message)) }
            return Pages.redirect("/settings/ai?notice=\(WebForm.escape(message))#writing")
        }
        router.get("/settings/ai/status") { _, _ -> Response in
            guard let models else { return Pages.json(JSONReply.ModelsStatus(storageUsed: "0 bytes", models: [])) }
            let entries = await models.models().map { status -> JSONReply.ModelsStatus.Model in
                var fraction = 0.0
                switch status.state {
                case .installed: fraction = 1
                case .partial(let part): fraction = part
                case .notInstalled, .damaged: break
                }
                return .init(id: status.id, downloading: status.isDownloading, installed: status.state == .installed,
                             percent: Int((fraction * 100).rounded(.down)), label: AIModelsView.stateText(status), problem: status.problem?.words)
            }
            return Pages.json(JSONReply.ModelsStatus(storageUsed: AIModelsView.size(await models.storageUsed()), models: entries))
        }
        router.get("/settings/ai/remove") { request, context -> Response in
            guard let models else { return Self.noModels }
            let id = try request.query(AIModelForm.self).id ?? ""
            let listed = await models.models()
            guard let status = listed.first(where: { $0.id == id }) else { return Pages.redirect("/settings/ai") }
            return Pages.html(AIModelsView(
                models: listed, storageUsed: 0, directory: models.modelsDirectory, confirmRemoval: status, notice: nil,
                csrf: self.csrf(context: context), display: await self.display()).render())
        }
        addAIModelActions(to: router, models: models)
    }

    /// Download, Cancel, Remove, and the onboarding step.
    private func addAIModelActions(to router: Router<WebRequestContext>, models: (any AIModelAdministration)?) {
        router.post("/settings/ai/download") { request, context -> Response in
            guard let models else { return Self.noModels }
            let form = try context.form(AIModelForm.self)
            var notice: String?
            do {
                try await models.startDownload(form.id ?? "")
            } catch {
                notice = PlainWords.of(error)
            }
            return Self.done(request, returnTo: form.returnTo, notice: notice)
        }
        router.post("/settings/ai/cancel") { request, context -> Response in
            guard let models else { return Self.noModels }
            let form = try context.form(AIModelForm.self)
            await models.cancelDownload(form.id ?? "")
            return Self.done(request, returnTo: form.returnTo, notice: nil)
        }
        router.post("/settings/ai/remove") { request, context -> Response in
            guard let models else { return Self.noModels }
            let id = try context.form(AIModelForm.self).id ?? ""
            let name = await models.models().first { $0.id == id }?.model.name ?? id
            let message: String
            do {
                let freed = try await models.remove(id)
                message = "Removed \(name): \(AIModelsView.size(freed)) freed."
            } catch {
                message = "\(name) was not removed. \(PlainWords.of(error))"
            }
            await self.events.publish(.changed)
            return Pages.redirect("/settings/ai?notice=\(WebForm.escape(message))")
        }
        router.get("/welcome/ai") { _, context -> Response in
            guard let models, let status = await models.models().first(where: { $0.id == AIModelCatalog.embeddingModelId }) else {
                return Pages.redirect("/mail")
            }
            return Pages.html(AIOnboardingView(status: status, csrf: self.csrf(context: context), display: await self.display()).render())
        }
    }

    private static var noModels: Response {
        Pages.redirect("/settings?notice=\(WebForm.escape("On-device AI is not managed by this VaultMail: use `vaultmail ai` in a terminal."))")
    }

    /// JSON for a script, else back to the page the form came from (the settings page or the onboarding step).
    private static func done(_ request: Request, returnTo: String?, notice: String?) -> Response {
        if request.headers[.accept]?.contains("application/json") == true {
            return Pages.json(JSONReply.Message(message: notice), status: notice == nil ? .ok : .badRequest)
        }
        let back = returnTo == "/welcome/ai" ? "/welcome/ai" : "/settings/ai"
        return Pages.redirect(notice.map { "\(back)?notice=\(WebForm.escape($0))" } ?? back)
    }

    /// What the On-device AI pages post and ask: a model (`id`), the page to go back to, the
    /// writing switch; the notice to show.
    private struct AIModelForm: Decodable {
        var id: String?
        var returnTo: String?
        var autoSummarize: String?
        var notice: String?

        private enum CodingKeys: String, CodingKey {
            case id, returnTo = "return", autoSummarize, notice
        }
    }
}
