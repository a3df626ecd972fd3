import VaultMailCore

/// The onboarding step after an account is added (AC-A-08): what the on-device model does,
/// Download with its progress bar, and Skip. Skipping leaves the features saying "Download a
/// model to enable …"; once the download ends they work, with no restart.
struct AIOnboardingView {
    /// The model the features need, as it stands.
    var status: AIModelStatus
    var csrf: String
    var display: Pages.Display

    func render() -> String {
        let model = status.model
        var body = "<main class=\"onboarding\" id=\"main\"><div class=\"onboarding-card\" data-ai-models>"
        body += "<section id=\"model-\(HTML.escape(model.id))\" data-model=\"\(HTML.escape(model.id))\" data-downloading=\"\(status.isDownloading)\""
            + " data-installed=\"\(status.state == .installed)\" aria-labelledby=\"ai-step-title\">"
        if status.state == .installed {
            body += "<h1 id=\"ai-step-title\">Categories and search by meaning are on</h1>"
            body += "<p class=\"lead\">\(HTML.escape(model.name)) is installed on this computer. VaultMail sorts your mail into Primary, Social, Promotions, Updates and Forums and finds mail by meaning, all here.</p>"
            body += "<p><a class=\"primary button-link\" href=\"/mail\" id=\"ai-to-mail\">Go to your mail</a></p>"
        } else {
            body += "<h1 id=\"ai-step-title\">Sort and search your mail by meaning</h1>"
            body += "<p class=\"lead\">With a small model that runs on this computer, VaultMail sorts mail into Primary, Social, Promotions, Updates and Forums and finds mail by what it means, not only by its words. Nothing of your mail leaves this computer.</p>"
            body += "<dl class=\"facts\"><dt>Model</dt><dd>\(HTML.escape(model.name))</dd><dt>Download</dt><dd>\(AIModelsView.size(model.sizeBytes))</dd>"
                + "<dt>Licence</dt><dd>\(HTML.escape(model.licence))</dd><dt>State</dt><dd data-ai-state>\(HTML.escape(AIModelsView.stateText(status)))</dd></dl>"
            body += AIModelsView.progressBar(status)
            if let problem = status.problem { body += "<p class=\"notice error\" role=\"alert\">\(HTML.escape(problem))</p>" }
            let hidden = "<input type=\"hidden\" name=\"csrf\" value=\"\(HTML.escape(csrf))\">"
            body += "<div class=\"compose-actions\">" + AIModelsView.actions(status, csrf: hidden, returnTo: "/welcome/ai")
            body += "<a class=\"tool\" href=\"/mail\" id=\"ai-skip\">\(status.isDownloading ? "Go to your mail while it downloads" : "Skip for now")</a></div>"
            body += "<p class=\"hint-text\">You can download it later in Settings → On-device AI, or with <code>vaultmail ai download \(HTML.escape(model.id))</code>. Until then the categories and search by meaning say “Download a model to enable”.</p>"
        }
        body += "</section></div></main>"
        return Pages.document(title: "On-device AI — VaultMail", bodyClass: "app onboarding-page", csrf: csrf, body: body,
                              scripts: [AIModelsScript.asset], display: display)
    }
}
