import VaultMailCore

/// The onboarding step after an account is added (AC-A-08): what the on-device model does,
/// Download with its progress bar, and Skip. Skipping leaves the features saying "Download a
/// model to enable …"; once the download ends they work, with no restart.
struct AIOnboardingView {
    /// The model the features need, as it stands.
    var status: AIModelStatus
    var csrf: String
    var display: Pages.Display

    func render() -> Markup {
        struct Model {
            var card: AIModelsView.Card
            var skip: String
        }
        let body = Self.template.render(Model(card: AIModelsView.Card(status, csrf: csrf, returnTo: "/welcome/ai"),
                                              skip: status.isDownloading ? "Go to your mail while it downloads" : "Skip for now"))
        return Pages.document(title: "On-device AI — VaultMail", bodyClass: "app onboarding-page", csrf: csrf, body: body,
                              scripts: [AIModelsScript.asset], display: display)
    }

    private static let template = Template("""
        <main class="onboarding" id="main"><div class="onboarding-card" data-ai-models>{{#card}}\
        <section id="model-{{id}}" data-model="{{id}}" data-downloading="{{downloading}}" data-installed="{{installed}}" aria-labelledby="ai-step-title">\
        {{#installed}}<h1 id="ai-step-title">Categories and search by meaning are on</h1>\
        <p class="lead">{{name}} is installed on this computer. VaultMail sorts your mail into Primary, Social, Promotions, Updates and Forums and finds mail by meaning, all here.</p>\
        <p><a class="primary button-link" href="/mail" id="ai-to-mail">Go to your mail</a></p>{{/installed}}\
        {{^installed}}<h1 id="ai-step-title">Sort and search your mail by meaning</h1>\
        <p class="lead">With a small model that runs on this computer, VaultMail sorts mail into Primary, Social, Promotions, Updates and Forums and finds mail by what it means, not only by its words. Nothing of your mail leaves this computer.</p>\
        <dl class="facts"><dt>Model</dt><dd>{{name}}</dd><dt>Download</dt><dd>{{size}}</dd>\
        <dt>Licence</dt><dd>{{licence}}</dd><dt>State</dt><dd data-ai-state>{{state}}</dd></dl>{{{progress}}}\
        {{{problem}}}\
        <div class="compose-actions">{{{actions}}}\
        <a class="tool" href="/mail" id="ai-skip">{{skip}}</a></div>\
        <p class="hint-text">You can download it later in Settings → On-device AI, or with <code>vaultmail ai download {{id}}</code>. Until then the categories and search by meaning say “Download a model to enable”.</p>{{/installed}}\
        </section>{{/card}}</div></main>
        """)
}
