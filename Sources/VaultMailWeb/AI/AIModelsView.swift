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

    func render() -> Markup {
        struct Model {
            var backIcon: Markup
            var removal: Markup
            var notice: String?
            var writing: Markup
            var models: Markup
            var storage: String
            var directory: String
            var offline: Markup
        }
        let body = Self.template.render(Model(
            backIcon: Icon.back.svg(), removal: confirmRemoval.map(removal) ?? .empty, notice: notice,
            writing: autoSummarize.map(writing) ?? .empty, models: models.map(item).joined(), storage: Self.size(storageUsed),
            directory: directory.path, offline: offline()))
        return Pages.document(title: "On-device AI — VaultMail", bodyClass: "app onboarding-page", csrf: csrf, body: body,
                              scripts: [AIModelsScript.asset], display: display)
    }

    private static let template = Template("""
        <header class="topbar"><a class="brand" href="/mail">VaultMail</a><a class="tool" href="/settings">{{{backIcon}}}<span>Back to the settings</span></a></header>\
        <main class="onboarding" id="main"><div class="onboarding-card" data-ai-models>\
        {{{removal}}}\
        {{^removal}}<h1>On-device AI</h1><p class="lead">Categories, search by meaning, conversation summaries and suggested replies run on this computer with small models. Nothing of your mail leaves it: the models' files are the only thing VaultMail downloads.</p>\
        <p class="notice" role="status" id="ai-status"{{^notice}} hidden{{/notice}}>{{notice}}</p>\
        {{{writing}}}{{{models}}}\
        <p>Storage used by models: <strong data-ai-storage>{{storage}}</strong>, in <code>{{directory}}</code>.</p>{{{offline}}}{{/removal}}\
        </div></main>
        """)

    /// Summaries and suggested replies: when conversations are summarized. A form that works
    /// without the script; with it the switch is saved the moment it changes.
    private func writing(_ autoSummarize: Bool) -> Markup {
        struct Model { var csrf: String; var on: Bool }
        return Self.writingTemplate.render(Model(csrf: csrf, on: autoSummarize))
    }

    private static let writingTemplate = Template("""
        <section class="settings-section" id="writing" aria-labelledby="writing-title"><h2 id="writing-title">Summaries and suggested replies</h2>\
        <form method="post" action="/settings/ai/writing" class="settings-form" data-autosave><input type="hidden" name="csrf" value="{{csrf}}">\
        <div class="setting"><label class="switch" for="sw-autoSummarize"><input type="checkbox" role="switch" id="sw-autoSummarize" name="autoSummarize" value="1"\
        {{#on}} checked{{/on}} aria-describedby="sw-autoSummarize-hint"><span class="switch-track" aria-hidden="true"></span>\
        <span>Summarize conversations of 3 or more messages when I open them</span></label>\
        <p class="hint-text" id="sw-autoSummarize-hint">Other conversations have a Summarize button at the top. A summary is written once and kept; new mail in the conversation offers to refresh it. Suggested replies are written when a conversation is opened.</p></div>\
        <button class="primary save-button">Save</button></form></section>
        """)

    /// What a model's section and the onboarding step both show of it: the template's
    /// `{{#card}}…{{/card}}` reads these, the page's own values come from around it.
    struct Card {
        var id: String
        var name: String
        var downloading: Bool
        var installed: Bool
        var size: String
        var licence: String
        var state: String
        var progress: Markup
        var problem: Markup
        var actions: Markup

        init(_ status: AIModelStatus, csrf: String, returnTo: String) {
            let model = status.model
            id = model.id
            name = model.name
            downloading = status.isDownloading
            installed = status.state == .installed
            size = AIModelsView.size(model.sizeBytes)
            licence = model.licence
            state = AIModelsView.stateText(status)
            progress = AIModelsView.progressBar(status)
            problem = status.problem.map { ProblemView.render($0) } ?? .empty
            actions = AIModelsView.actions(status, csrf: csrf, returnTo: returnTo)
        }
    }

    private func item(_ status: AIModelStatus) -> Markup {
        struct Model {
            var card: Card
            var summary: String
            var purpose: String
            var removable: Bool
        }
        return Self.itemTemplate.render(Model(
            card: Card(status, csrf: csrf, returnTo: "/settings/ai"), summary: status.model.summary,
            purpose: Self.purpose(status.model.purpose), removable: status.state != .notInstalled && !status.isDownloading))
    }

    private static let itemTemplate = Template("""
        {{#card}}<section class="settings-section" id="model-{{id}}" aria-labelledby="model-{{id}}-title" data-model="{{id}}"\
         data-downloading="{{downloading}}" data-installed="{{installed}}">\
        <h2 id="model-{{id}}-title">{{name}}</h2><p>{{summary}}</p><dl class="facts">\
        <dt>Purpose</dt><dd>{{purpose}}</dd><dt>Size</dt><dd>{{size}}</dd>\
        <dt>Licence</dt><dd>{{licence}}</dd><dt>State</dt><dd data-ai-state>{{state}}</dd></dl>{{{progress}}}\
        {{{problem}}}\
        <div class="compose-actions">{{{actions}}}\
        {{#removable}}<form method="get" action="/settings/ai/remove"><input type="hidden" name="id" value="{{id}}">\
        <button class="tool danger" aria-label="Remove {{name}}…">Remove…</button></form>{{/removable}}\
        </div></section>{{/card}}
        """)

    /// Download, Resume or Cancel as the model's state calls for.
    static func actions(_ status: AIModelStatus, csrf: String, returnTo: String) -> Markup {
        struct Model { var csrf: String; var id: String; var name: String; var returnTo: String; var action: String; var button: String; var buttonClass: String; var buttonId: String; var label: String }
        let model = status.model
        let action: (path: String, button: String, buttonClass: String, buttonId: String, label: String)
        if status.isDownloading {
            action = ("/settings/ai/cancel", "Cancel", "tool", "cancel-\(model.id)", "Cancel the download of \(model.name)")
        } else {
            switch status.state {
            case .installed: return .empty
            case .partial: action = ("/settings/ai/download", "Resume", "primary", "download-\(model.id)", "Resume the download of \(model.name)")
            case .damaged:
                action = ("/settings/ai/download", "Download again", "primary", "download-\(model.id)", "Download \(model.name) again: it is damaged")
            case .notInstalled:
                action = ("/settings/ai/download", "Download", "primary", "download-\(model.id)", "Download \(model.name) (\(size(model.sizeBytes)))")
            }
        }
        return actionTemplate.render(Model(csrf: csrf, id: model.id, name: model.name, returnTo: returnTo, action: action.path, button: action.button,
                                           buttonClass: action.buttonClass, buttonId: action.buttonId, label: action.label))
    }

    private static let actionTemplate = Template("""
        <form method="post" action="{{action}}"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="id" value="{{id}}">\
        <input type="hidden" name="return" value="{{returnTo}}"><button class="{{buttonClass}}" id="{{buttonId}}" aria-label="{{label}}">{{button}}</button></form>
        """)

    /// The bar of a download under way or stopped part-way (a native `<progress>`, named for screen readers).
    static func progressBar(_ status: AIModelStatus) -> Markup {
        struct Model { var id: String; var verb: String; var name: String; var percent: Int }
        let fraction: Double
        if case .partial(let part) = status.state {
            fraction = part
        } else if status.isDownloading {
            fraction = 0
        } else {
            return .empty
        }
        return progressTemplate.render(Model(id: status.model.id, verb: status.isDownloading ? "Downloading" : "Downloaded", name: status.model.name,
                                             percent: Int((fraction * 100).rounded(.down))))
    }

    private static let progressTemplate = Template("""
        <p class="ai-progress"><label for="progress-{{id}}">{{verb}} {{name}}</label> \
        <progress id="progress-{{id}}" max="100" value="{{percent}}">{{percent}}%</progress> <span data-ai-percent>{{percent}}%</span></p>
        """)

    private func removal(_ status: AIModelStatus) -> Markup {
        struct Model { var name: String; var frees: String?; var features: String; var csrf: String; var id: String }
        let model = status.model
        return Self.removalTemplate.render(Model(
            name: model.name, frees: status.state == .installed ? Self.size(model.sizeBytes) : nil,
            features: Self.features(model.purpose).capitalizedFirst, csrf: csrf, id: model.id))
    }

    private static let removalTemplate = Template("""
        <h1>Remove {{name}}?</h1><p class="lead">This deletes its files from this computer\
        {{#frees}} and frees {{frees}}{{/frees}}{{^frees}}, the part downloaded so far included{{/frees}}\
        . {{features}} stop until it is downloaded again; the categories already given stay.</p>\
        <form method="post" action="/settings/ai/remove" class="compose-actions"><input type="hidden" name="csrf" value="{{csrf}}"><input type="hidden" name="id" value="{{id}}">\
        <button class="primary danger-button" id="confirm-remove">Remove {{name}}</button><a class="tool" href="/settings/ai">Keep it</a></form>
        """)

    private func offline() -> Markup {
        struct File { var name: String; var size: String; var url: [Piece]; var sha256: [Piece]; var last: Bool }
        struct Item { var id: String; var files: [File] }
        struct Model { var models: [Item] }
        return Self.offlineTemplate.render(Model(models: models.map { status in
            let files = status.model.files
            return Item(id: status.model.id, files: files.enumerated().map { index, file in
                File(name: file.name, size: Self.size(file.sizeBytes), url: Self.breakable(file.url.absoluteString),
                     sha256: Self.breakable(file.sha256), last: index == files.count - 1)
            })
        }))
    }

    private static let offlineTemplate = Template("""
        <section class="settings-section" id="offline" aria-labelledby="offline-title"><h2 id="offline-title">Install from a file (no internet on this computer)</h2>\
        <p>Copy the model's files from a computer that has them, then run in a terminal here:</p>\
        {{#models}}<p><code>vaultmail ai install {{id}} /path/to/the/folder/</code></p>\
        <p class="hint-text">The folder holds {{#files}}<code>{{name}}</code>{{^last}}, {{/last}}{{/files}}. Each file is checked against its published SHA-256 before it is used:</p><ul class="hint-text">\
        {{#files}}<li><code>{{name}}</code> ({{size}}) from <code>{{#url}}{{text}}{{#wbr}}<wbr>{{/wbr}}{{/url}}</code>, SHA-256 <code>{{#sha256}}{{text}}{{#wbr}}<wbr>{{/wbr}}{{/sha256}}</code></li>{{/files}}\
        </ul>{{/models}}\
        <p class="hint-text">Or download over a mirror of your own: <code>vaultmail ai download ID --mirror URL</code> fetches <code>URL/ID/file</code>.</p>\
        </section>
        """)

    /// A piece of text and whether a line may break after it.
    struct Piece { var text: String; var wbr: Bool }

    /// `text` in pieces with places to break a line (after each "/", every 16 characters of a
    /// long run), so an address or a digest never widens a phone's screen.
    static func breakable(_ text: String) -> [Piece] {
        var pieces: [Piece] = [], current = ""
        for character in text {
            current.append(character)
            if character == "/" || current.count == 16 {
                pieces.append(Piece(text: current, wbr: true))
                current = ""
            }
        }
        if !current.isEmpty { pieces.append(Piece(text: current, wbr: false)) }
        return pieces
    }

    static func stateText(_ status: AIModelStatus) -> String {
        switch status.state {
        case .installed: return "Installed: " + features(status.model.purpose) + " are on"
        case .notInstalled: return status.isDownloading ? "Downloading…" : "Not installed"
        case .partial(let fraction):
            let percent = Int((fraction * 100).rounded(.down))
            return status.isDownloading ? "Downloading: \(percent)%" : "Partly downloaded (\(percent)%): Resume continues it"
        case .damaged(let reason):
            return status.isDownloading ? "Downloading…" : "Damaged (\(reason)): Download again installs it anew"
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
