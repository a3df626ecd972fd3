import Foundation
import VaultMailCore

extension SettingsView {
    /// Settings → Storage (issue 31): what VaultMail keeps on this machine per account and in
    /// all, the free space left (a warning when low, E-05), and "Clear cached images".
    func storageSection() -> Markup {
        guard let storage else { return .empty }
        struct Row { var account: String; var email: String; var messages: String; var mail: String; var attachments: String; var vectors: String }
        struct Model {
            var rows: [Row]
            var hasRows: Bool
            var index: String
            var files: String
            var images: String?
            var models: String?
            var free: String?
            var low: Bool
            var failure: String?
            var csrf: String
        }
        var model = Model(rows: [], hasRows: false, index: "", files: "", images: nil, models: nil, free: nil, low: false, failure: nil, csrf: csrf)
        switch storage {
        case .failure(let failure):
            model.failure = failure.words
        case .success(let report):
            model.rows = report.accounts.map {
                Row(account: $0.name, email: $0.email, messages: $0.usage.messages.formatted(), mail: Self.size($0.usage.mailBytes),
                    attachments: Self.size($0.usage.attachmentBytes), vectors: Self.size($0.usage.vectorBytes))
            }
            model.hasRows = !model.rows.isEmpty
            model.index = Self.size(report.searchIndexBytes)
            model.files = Self.size(report.storeFileBytes)
            model.images = report.imageCacheBytes.map(Self.size)
            model.models = report.modelBytes.map { AIModelsView.size($0) }
            model.free = report.freeBytes.map { AIModelsView.size($0) }
            model.low = report.isLowOnSpace
        }
        return Self.storageTemplate.render(model)
    }

    private static func size(_ bytes: Int) -> String { AIModelsView.size(Int64(bytes)) }

    private static let storageTemplate = Template("""
        <section class="settings-section" id="storage" aria-labelledby="storage-title"><h2 id="storage-title">Storage</h2>\
        {{#failure}}<p class="notice error" role="alert">{{failure}}</p>{{/failure}}\
        {{#low}}<p class="notice error" role="alert">This disk is nearly full: {{free}} left. Free some space, or clear the cached images \
        below, before it fills; VaultMail keeps your mail and queued messages safe, but new mail waits until there is room.</p>{{/low}}\
        {{#hasRows}}<div class="table-scroll" role="region" aria-label="Storage per account" tabindex="0"><table class="storage-table"><caption>Kept on this computer, per account</caption>\
        <thead><tr><th scope="col">Account</th><th scope="col">Messages</th><th scope="col">Mail</th><th scope="col">of which attachments</th>\
        <th scope="col">Search by meaning</th></tr></thead><tbody>\
        {{#rows}}<tr><th scope="row">{{account}} <span class="address">{{email}}</span></th><td>{{messages}}</td><td>{{mail}}</td>\
        <td>{{attachments}}</td><td>{{vectors}}</td></tr>{{/rows}}</tbody></table></div>{{/hasRows}}\
        {{^failure}}<dl class="facts"><dt>Search index (all accounts)</dt><dd>{{index}}</dd><dt>The store's files</dt><dd>{{files}}</dd>\
        {{#models}}<dt>On-device models</dt><dd>{{models}} (<a href="/settings/ai">manage them</a>)</dd>{{/models}}\
        {{#images}}<dt>Cached images</dt><dd>{{images}}</dd>{{/images}}\
        {{#free}}{{^low}}<dt>Free on this disk</dt><dd>{{free}}</dd>{{/low}}{{/free}}</dl>{{/failure}}\
        {{#images}}<form method="post" action="/settings/storage/clear-images"><input type="hidden" name="csrf" value="{{csrf}}">\
        <p class="hint">Images you let into messages are kept so a message opens again without asking their servers; cleared, \
        they are fetched again when shown.</p><button class="tool">Clear cached images</button></form>{{/images}}\
        </section>
        """)
}
