import Foundation
import VaultMailCore

/// The Subscriptions page (issue 33): the senders of bulk mail of the last 90 days (mail with
/// List-Unsubscribe or List-Id) in a table — how many messages in 30 and 90 days, the newest
/// one read, and Unsubscribe (or when the person did) — sortable by volume, by the recent
/// volume or by name through links in the column headings (`aria-sort` says which). Each
/// Unsubscribe is a form that asks first on a page of its own without the script, and in a
/// dialog with it (`UnsubscribeScript`).
struct SubscriptionsView {
    enum Sort: String, CaseIterable {
        case volume, recent, name
    }

    var items: [Subscription]
    var sort: Sort
    var notice: String?
    var failed = false
    var csrf: String
    var dates: RelativeDate
    var display: Pages.Display

    func render() -> Markup {
        struct Column { var label: String; var href: String; var sort: String?; var num: Bool }
        struct Row {
            var id: String
            var name: String
            var address: String
            var list: String?
            var recent: Int
            var count: Int
            var lastRead: String
            var unsubscribed: String?
            var offered: Bool
            var confirm: String
            var notOffered: String?
        }
        struct Model {
            var backIcon: Markup
            var notice: String?
            var failed: Bool
            var window: Int
            var recentDays: Int
            var empty: Bool
            var columns: [Column]
            var rows: [Row]
            var csrf: String
        }
        let sorted: [Subscription] = switch sort {
        case .volume: items.sorted { ($0.count, $0.recentCount, $0.latestDate) > ($1.count, $1.recentCount, $1.latestDate) }
        case .recent: items.sorted { ($0.recentCount, $0.count, $0.latestDate) > ($1.recentCount, $1.count, $1.latestDate) }
        case .name: items.sorted { $0.displayName.localizedCaseInsensitiveCompare($1.displayName) == .orderedAscending }
        }
        func column(_ label: String, _ kind: Sort) -> Column {
            Column(label: label, href: "/subscriptions?sort=\(kind.rawValue)",
                   sort: sort == kind ? (kind == .name ? "ascending" : "descending") : nil, num: kind != .name)
        }
        let rows = sorted.map { item -> Row in
            var notOffered: String?
            if case .notOffered(let reason) = item.method { notOffered = reason }
            return Row(
                id: item.latestEmailId, name: item.displayName, address: item.senderAddress, list: item.listId,
                recent: item.recentCount, count: item.count, lastRead: item.lastRead.map(dates.string(for:)) ?? "Never",
                unsubscribed: item.unsubscribedAt.map {
                    "Unsubscribed " + dates.string(for: $0)
                        + (item.sinceUnsubscribed > 0 ? " · \(item.sinceUnsubscribed) message\(item.sinceUnsubscribed == 1 ? "" : "s") since" : "")
                },
                offered: item.unsubscribedAt == nil && notOffered == nil,
                confirm: "Unsubscribe from \(item.displayName)? \(item.method.summary).", notOffered: notOffered)
        }
        let body = Self.template.render(Model(
            backIcon: Icon.back.svg(), notice: notice, failed: failed, window: Unsubscribe.windowDays, recentDays: Unsubscribe.recentDays,
            empty: rows.isEmpty,
            columns: [column("Sender", .name), column("Last \(Unsubscribe.recentDays) days", .recent), column("Last \(Unsubscribe.windowDays) days", .volume)],
            rows: rows, csrf: csrf))
        return Pages.document(title: "Subscriptions — VaultMail", bodyClass: "app settings-page subscriptions-page", csrf: csrf, body: body,
                              scripts: [Assets.unsubscribeScript], display: display)
    }

    private static let template = Template("""
        <a class="skip" href="#subs-title">Skip to the subscriptions</a>\
        <header class="topbar"><a class="brand" href="/mail">VaultMail</a><a class="tool" href="/mail">{{{backIcon}}}<span>Back to the mail</span></a></header>\
        <main class="settings-main subs-main" id="main"><div class="settings-content">\
        <h1 id="subs-title" tabindex="-1">Subscriptions</h1>\
        <p class="notice{{#failed}} error{{/failed}}" id="subs-status" role="status"{{^notice}} hidden{{/notice}}>{{notice}}</p>\
        <p class="hint-text">Newsletters and mailing lists that wrote to you in the last {{window}} days: mail with a List-Unsubscribe or List-Id header. \
        Unsubscribe sends the sender's one-click request (RFC 8058) or the email its header names, only when you confirm; VaultMail never opens an unsubscribe link.</p>\
        {{#empty}}<p>No mail from newsletters or mailing lists in the last {{window}} days.</p>{{/empty}}\
        {{^empty}}<div class="subs-scroll"><table class="subs-table" aria-describedby="subs-title">\
        <caption class="visually-hidden">Senders of bulk mail; the column headings sort the table</caption>\
        <thead><tr>{{#columns}}<th scope="col"{{#num}} class="num"{{/num}}{{#sort}} aria-sort="{{sort}}"{{/sort}}><a href="{{href}}">{{label}}</a></th>{{/columns}}\
        <th scope="col" class="subs-read">Last read</th><th scope="col">Unsubscribe</th></tr></thead><tbody>\
        {{#rows}}<tr><th scope="row" class="subs-sender"><span class="subs-name">{{name}}</span> <span class="subs-address">{{address}}</span>\
        {{#list}}<span class="subs-list">list {{list}}</span>{{/list}}</th>\
        <td class="num subs-recent">{{recent}}</td><td class="num">{{count}}</td><td class="subs-read">{{lastRead}}</td><td class="subs-action">\
        {{#unsubscribed}}<span class="subs-done">{{unsubscribed}}</span>{{/unsubscribed}}\
        {{#offered}}<form method="get" action="/unsubscribe"><input type="hidden" name="id" value="{{id}}"><input type="hidden" name="return" value="/subscriptions">\
        <button class="tool subs-button" data-unsubscribe="{{id}}" data-confirm="{{confirm}}" aria-label="Unsubscribe from {{name}}">Unsubscribe</button></form>{{/offered}}\
        {{#notOffered}}<span class="subs-none" title="{{notOffered}}">Not offered<span class="visually-hidden">: {{notOffered}}</span></span>{{/notOffered}}\
        </td></tr>{{/rows}}</tbody></table></div>{{/empty}}\
        </div></main>
        """)
}

/// The page that asks before unsubscribing when the script does not run (`GET /unsubscribe`).
struct UnsubscribeConfirmView {
    var offer: UnsubscribeOffer
    var returnTo: String
    var csrf: String
    var display: Pages.Display

    func render() -> Markup {
        struct Model { var sender: String; var summary: String; var id: String; var returnTo: String; var csrf: String }
        let body = Self.template.render(Model(sender: offer.name, summary: offer.method.summary + ".", id: offer.emailId,
                                              returnTo: returnTo, csrf: csrf))
        return Pages.document(title: "Unsubscribe — VaultMail", bodyClass: "app settings-page", csrf: csrf, body: body, scripts: [], display: display)
    }

    private static let template = Template("""
        <header class="topbar"><a class="brand" href="/mail">VaultMail</a></header>\
        <main class="settings-main" id="main"><div class="settings-content">\
        <h1>Unsubscribe from {{sender}}?</h1><p>{{summary}}</p>\
        <form method="post" action="/unsubscribe" class="settings-form"><input type="hidden" name="csrf" value="{{csrf}}">\
        <input type="hidden" name="id" value="{{id}}"><input type="hidden" name="return" value="{{returnTo}}">\
        <button class="primary">Unsubscribe</button> <a class="tool" href="{{returnTo}}">Cancel</a></form>\
        </div></main>
        """)
}
