import Foundation
import VaultMailCore

extension SettingsView {
    /// What Settings → Privacy shows (issue 30): whether the tracker shield has its lists, and
    /// what it removed so far.
    struct PrivacyFacts {
        var status: TrackerShield.Status
        var totals: TrackerTotals
    }

    /// Settings → Privacy: the shield's lists (or why they are missing), the trackers removed
    /// overall and by sender, and what remains true whatever the shield does.
    func privacySection() -> Markup {
        struct Sender { var address: String; var trackers: Int; var messages: Int }
        struct Model {
            var version: String?
            var filters: String
            var parameters: String
            var missing: String?
            var trackers: String
            var messages: String
            var senders: [Sender]
            var hasSenders: Bool
        }
        guard let privacy else { return Markup.empty }
        var model = Model(version: nil, filters: "", parameters: "", missing: nil,
                          trackers: privacy.totals.trackers == 1 ? "1 tracker" : "\(privacy.totals.trackers.formatted()) trackers",
                          messages: privacy.totals.messages == 1 ? "1 message" : "\(privacy.totals.messages.formatted()) messages",
                          senders: privacy.totals.senders.map { Sender(address: $0.address, trackers: $0.trackers, messages: $0.messages) },
                          hasSenders: !privacy.totals.senders.isEmpty)
        switch privacy.status {
        case .on(let version, _, let filters, let parameters):
            model.version = version
            model.filters = filters.formatted()
            model.parameters = parameters.formatted()
        case .listsMissing(let reason):
            model.missing = reason
        }
        return Self.privacyTemplate.render(model)
    }

    private static let privacyTemplate = Template("""
        <section class="settings-section" id="privacy" aria-labelledby="privacy-title"><h2 id="privacy-title">Privacy</h2>\
        {{#version}}<p>The tracker shield is on, with EasyPrivacy and uBlock filters – Privacy from Debian's uBlock Origin \
        {{version}} ({{filters}} filters, {{parameters}} tracking parameters): the copy that comes with VaultMail, or Debian's \
        uBlock Origin package when you have it and its lists are newer.</p>{{/version}}\
        {{#missing}}<p class="notice" role="note">{{missing}}</p>{{/missing}}\
        <p>When a message's images are shown, known trackers, invisible images and open beacons are still removed, and every \
        link loses its tracking parameters; other remote images load. Images stay blocked until you let them in, and then \
        VaultMail fetches them itself, never your browser: no cookies, no address of the page, nothing that names your browser.</p>\
        <p>Removed so far: <strong>{{trackers}}</strong> from {{messages}}.</p>\
        {{#hasSenders}}<table class="privacy-senders"><caption>Senders with the most trackers</caption>\
        <thead><tr><th scope="col">Sender</th><th scope="col">Trackers</th><th scope="col">Messages</th></tr></thead><tbody>\
        {{#senders}}<tr><td>{{address}}</td><td>{{trackers}}</td><td>{{messages}}</td></tr>{{/senders}}</tbody></table>{{/hasSenders}}\
        <p>Read receipts (<code>Disposition-Notification-To</code>) are never sent. A server an image is fetched from still learns \
        this computer's address and when it was fetched.</p></section>
        """)
}
