import Foundation
import VaultMailCore

/// Settings → On-device AI (AC-A-03): each model of the catalog with its name, purpose, size,
/// licence and state; Download, a progress bar while it downloads, Cancel, Resume, Remove
/// (asked first); the storage used; and how to install a model on a machine without internet.
/// Every button is a form that works without the script; the script moves the bar as the
/// download goes and reloads the page when one ends.
struct AIModelsView {
    var models: [AIModelStatus]
    var storageUsed: Int64
    var directory: URL
    /// The model whose removal is asked about, when it is.
    var confirmRemoval: AIModelStatus?
    var notice: String?
    var csrf: String
    var display: Pages.Display
    /// The "summarize when I open" setting (issue 16); nil leaves its section out.
    var autoSummarize: Bool?

    func render() -> String {
        var body = "<header class=\"topbar\"><a class=\"brand\" href=\"/mail\">VaultMail</a><a class=\"tool\" href=\"/settings\">\(Icon.back.svg())<span>Back to the settings</span></a></header>"
        body += "<main class=\"onboarding\" id=\"main\"><div class=\"onboarding-card\" data-ai-models>"
        if let model = confirmRemoval {
            body += removal(model)
        } else {
            body += "<h1>On-device AI</h1><p class=\"lead\">Categories, search by meaning, conversation summaries and suggested replies run on this computer with small models. Nothing of your mail leaves it: the models' files are the only thing VaultMail downloads.</p>"
            body += "<p class=\"notice\" role=\"status\" id=\"ai-status\"\(notice == nil ? " hidden" : "")>\(HTML.escape(notice ?? ""))</p>"
            if let autoSummarize { body += writing(autoSummarize) }
            body += models.map(item).joined()
            body += "<p>Storage used by models: <strong data-ai-storage>\(Self.size(storageUsed))</strong>, in <code>\(HTML.escape(directory.path))</code>.</p>"
            body += offline()
        }
        body += "</div></main>"
        return Pages.document(title: "On-device AI — VaultMail", bodyClass: "app onboarding-page", csrf: csrf, body: body,
                              scripts: [AIModelsScript.asset], display: display)
    }

    /// Summaries and suggested replies: when conversations are summarized. A form that works
    /// without the script; with it the switch is saved the moment it changes.
    private func writing(_ autoSummarize: Bool) -> String {
        var out = "<section class=\"settings-section\" id=\"writing\" aria-labelledby=\"writing-title\"><h2 id=\"writing-title\">Summaries and suggested replies</h2>"
        out += "<form method=\"post\" action=\"/settings/ai/writing\" class=\"settings-form\" data-autosave>\(hiddenCSRF)"
        out += "<div class=\"setting\"><label class=\"switch\" for=\"sw-autoSummarize\"><input type=\"checkbox\" role=\"switch\" id=\"sw-autoSummarize\" name=\"autoSummarize\" value=\"1\""
        out += "\(autoSummarize ? " checked" : "") aria-describedby=\"sw-autoSummarize-hint\"><span class=\"switch-track\" aria-hidden=\"true\"></span>"
        out += "<span>Summarize conversations of 3 or more messages when I open them</span></label>"
        out += "<p class=\"hint-text\" id=\"sw-autoSummarize-hint\">Other conversations have a Summarize button at the top. A summary is written once and kept; new mail in the conversation offers to refresh it. Suggested replies are written when a conversation is opened.</p></div>"
        return out + "<button class=\"primary save-button\">Save</button></form></section>"
    }

    private var hiddenCSRF: String { "<input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">" }

    private func item(_ status: AIModelStatus) -> String {
        let model = status.model, id = HTML.escape(model.id), name = HTML.escape(model.name)
        var out = "<section class=\"settings-section\" id=\"model-\(id)\" aria-labelledby=\"model-\(id)-title\" data-model=\"\(id)\""
            + " data-downloading=\"\(status.isDownloading)\" data-installed=\"\(status.state == .installed)\">"
        out += "<h2 id=\"model-\(id)-title\">\(name)</h2><p>\(HTML.escape(model.summary))</p><dl class=\"facts\">"
        out += "<dt>Purpose</dt><dd>\(Self.purpose(model.purpose))</dd><dt>Size</dt><dd>\(Self.size(model.sizeBytes))</dd>"
        out += "<dt>Licence</dt><dd>\(HTML.escape(model.licence))</dd><dt>State</dt><dd data-ai-state>\(HTML.escape(Self.stateText(status)))</dd></dl>"
        out += Self.progressBar(status)
        if let problem = status.problem { out += "<p class=\"notice error\" role=\"alert\">\(HTML.escape(problem))</p>" }
        out += "<div class=\"compose-actions\">" + Self.actions(status, csrf: hiddenCSRF, returnTo: "/settings/ai")
        if status.state != .notInstalled && !status.isDownloading {
            out += "<form method=\"get\" action=\"/settings/ai/remove\"><input type=\"hidden\" name=\"id\" value=\"\(id)\">"
                + "<button class=\"tool danger\" aria-label=\"Remove \(name)…\">Remove…</button></form>"
        }
        return out + "</div></section>"
    }

    /// Download, Resume or Cancel as the model's state calls for.
    static func actions(_ status: AIModelStatus, csrf: String, returnTo: String) -> String {
        let id = HTML.escape(status.model.id), name = HTML.escape(status.model.name)
        let hidden = csrf + "<input type=\"hidden\" name=\"id\" value=\"\(id)\"><input type=\"hidden\" name=\"return\" value=\"\(HTML.escape(returnTo))\">"
        if status.isDownloading {
            return "<form method=\"post\" action=\"/settings/ai/cancel\">\(hidden)<button class=\"tool\" id=\"cancel-\(id)\" aria-label=\"Cancel the download of \(name)\">Cancel</button></form>"
        }
        switch status.state {
        case .installed:
            return ""
        case .partial:
            return "<form method=\"post\" action=\"/settings/ai/download\">\(hidden)<button class=\"primary\" id=\"download-\(id)\" aria-label=\"Resume the download of \(name)\">Resume</button></form>"
        case .notInstalled:
            return "<form method=\"post\" action=\"/settings/ai/download\">\(hidden)<button class=\"primary\" id=\"download-\(id)\" aria-label=\"Download \(name) (\(size(status.model.sizeBytes)))\">Download</button></form>"
        }
    }

    /// The bar of a download under way or stopped part-way (a native `<progress>`, named for screen readers).
    static func progressBar(_ status: AIModelStatus) -> String {
        guard case .partial(let fraction) = status.state else {
            return status.isDownloading ? bar(status, 0) : ""
        }
        return bar(status, fraction)
    }

    private static func bar(_ status: AIModelStatus, _ fraction: Double) -> String {
        let percent = Int((fraction * 100).rounded(.down)), id = HTML.escape(status.model.id)
        return "<p class=\"ai-progress\"><label for=\"progress-\(id)\">\(status.isDownloading ? "Downloading" : "Downloaded") \(HTML.escape(status.model.name))</label> "
            + "<progress id=\"progress-\(id)\" max=\"100\" value=\"\(percent)\">\(percent)%</progress> <span data-ai-percent>\(percent)%</span></p>"
    }

    private func removal(_ status: AIModelStatus) -> String {
        let model = status.model, name = HTML.escape(model.name)
        var out = "<h1>Remove \(name)?</h1><p class=\"lead\">This deletes its files from this computer"
        out += status.state == .installed ? " and frees \(Self.size(model.sizeBytes))" : ", the part downloaded so far included"
        out += ". \(HTML.escape(Self.features(model.purpose).capitalizedFirst)) stop until it is downloaded again; the categories already given stay.</p>"
        out += "<form method=\"post\" action=\"/settings/ai/remove\" class=\"compose-actions\">\(hiddenCSRF)<input type=\"hidden\" name=\"id\" value=\"\(HTML.escape(model.id))\">"
        out += "<button class=\"primary danger-button\" id=\"confirm-remove\">Remove \(name)</button><a class=\"tool\" href=\"/settings/ai\">Keep it</a></form>"
        return out
    }

    private func offline() -> String {
        var out = "<section class=\"settings-section\" id=\"offline\" aria-labelledby=\"offline-title\"><h2 id=\"offline-title\">Install from a file (no internet on this computer)</h2>"
        out += "<p>Copy the model's files from a computer that has them, then run in a terminal here:</p>"
        for status in models {
            out += "<p><code>vaultmail ai install \(HTML.escape(status.model.id)) /path/to/the/folder/</code></p>"
            out += "<p class=\"hint-text\">The folder holds \(status.model.files.map { "<code>\(HTML.escape($0.name))</code>" }.joined(separator: ", ")). Each file is checked against its published SHA-256 before it is used:</p><ul class=\"hint-text\">"
            for file in status.model.files {
                out += "<li><code>\(HTML.escape(file.name))</code> (\(Self.size(file.sizeBytes))) from <code>\(Self.breakable(file.url.absoluteString))</code>, SHA-256 <code>\(Self.breakable(file.sha256))</code></li>"
            }
            out += "</ul>"
        }
        out += "<p class=\"hint-text\">Or download over a mirror of your own: <code>vaultmail ai download ID --mirror URL</code> fetches <code>URL/ID/file</code>.</p>"
        return out + "</section>"
    }

    /// `text` escaped, with places to break a line (after each "/", every 16 characters of a
    /// long run), so an address or a digest never widens a phone's screen.
    static func breakable(_ text: String) -> String {
        var out = "", run = 0
        for character in text {
            out += HTML.escape(String(character))
            run += 1
            if character == "/" || run == 16 {
                out += "<wbr>"
                run = 0
            }
        }
        return out
    }

    static func stateText(_ status: AIModelStatus) -> String {
        switch status.state {
        case .installed: return "Installed: " + features(status.model.purpose) + " are on"
        case .notInstalled: return status.isDownloading ? "Downloading…" : "Not installed"
        case .partial(let fraction):
            let percent = Int((fraction * 100).rounded(.down))
            return status.isDownloading ? "Downloading: \(percent)%" : "Partly downloaded (\(percent)%): Resume continues it"
        }
    }

    static func purpose(_ purpose: AIModelPurpose) -> String {
        switch purpose {
        case .embedding: "Sentence vectors for " + features(purpose)
        case .generation: "Writing text: " + features(purpose)
        }
    }

    static func features(_ purpose: AIModelPurpose) -> String {
        switch purpose {
        case .embedding: "categories and search by meaning"
        case .generation: "reply suggestions and summaries"
        }
    }

    static func size(_ bytes: Int64) -> String {
        bytes < 1000 ? "\(bytes) bytes" : ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
