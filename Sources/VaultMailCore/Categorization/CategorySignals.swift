import Foundation

/// The facts the header rules read, taken from a `CategorizationInput` once.
struct CategorySignals {
    let input: CategorizationInput
    let subject: String
    /// Subject and opening text, lowercased.
    let text: String
    let opening: String
    /// The end of the body, lowercased.
    let closing: String
    let domain: String
    let local: String
    let listId: String?
    let listPost: String?
    let listUnsubscribe: String?
    let oneClickUnsubscribe: Bool
    let precedence: String
    let autoSubmitted: String
    let marketingPlatform: String?

    init(_ input: CategorizationInput) {
        self.input = input
        subject = input.subject.lowercased()
        opening = input.openingText.lowercased()
        closing = input.closingText.lowercased()
        text = subject + " \n " + opening
        domain = input.senderDomain
        local = input.senderLocalPart
        let headers = input.headers
        listId = headers["list-id"].flatMap(Self.listIdentifier)
        if let post = headers["list-post"]?.trimmingCharacters(in: .whitespaces), !post.isEmpty,
           post.lowercased() != "no" && !post.lowercased().hasPrefix("no ") {
            listPost = post
        } else {
            listPost = nil
        }
        listUnsubscribe = headers["list-unsubscribe"]
        oneClickUnsubscribe = headers["list-unsubscribe-post"]?.lowercased().contains("one-click") ?? false
        precedence = headers["precedence"]?.lowercased().trimmingCharacters(in: .whitespaces) ?? ""
        autoSubmitted = headers["auto-submitted"]?.lowercased().trimmingCharacters(in: .whitespaces) ?? ""
        marketingPlatform = Self.marketingPlatform(domain: domain, headers: headers)
    }

    /// The identifier of a List-Id ("Name <id>" gives "id"; a bare id stays as it is).
    static func listIdentifier(_ value: String) -> String? {
        var id = value
        if let open = value.lastIndex(of: "<"), let close = value.lastIndex(of: ">"), open < close {
            id = String(value[value.index(after: open)..<close])
        }
        id = id.trimmingCharacters(in: .whitespaces).lowercased()
        return id.isEmpty ? nil : id
    }

    /// True when `domain` is `parent` or one of its subdomains.
    static func domain(_ domain: String, isWithin parent: String) -> Bool {
        domain == parent || domain.hasSuffix("." + parent)
    }

    /// The first domain of `domains` the sender's domain is within.
    func senderDomain(in domains: Set<String>) -> String? {
        var candidate = domain
        while !candidate.isEmpty {
            if domains.contains(candidate) { return candidate }
            guard let dot = candidate.firstIndex(of: ".") else { break }
            candidate = String(candidate[candidate.index(after: dot)...])
        }
        return nil
    }

    /// A header field's name as it is usually written ("x-github-reason" → "X-Github-Reason").
    static func fieldName(_ lowercased: String) -> String {
        lowercased.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }

    /// A header field whose name starts with one of `prefixes`.
    func header(withPrefixIn prefixes: [String]) -> String? {
        input.headers.keys.sorted().first { name in prefixes.contains { name.hasPrefix($0) } }
    }

    /// A marketing platform named by the sender, Return-Path, List-Unsubscribe, List-Id or
    /// Sender field (several rules ask: found once, in `init`).
    static func marketingPlatform(domain: String, headers: [String: String]) -> String? {
        let places = [domain, headers["return-path"], headers["list-unsubscribe"],
                      headers["list-id"], headers["sender"], headers["x-mailer"]]
            .compactMap { $0?.lowercased() }
        for platform in CategoryVocabulary.marketingPlatformDomains {
            if places.contains(where: { CategoryText.containsBytes($0, platform) }) { return platform }
        }
        if let mailer = headers["x-mailer"]?.lowercased(),
           ["mailchimp", "mailjet", "sendinblue", "hubspot", "marketo", "campaign", "newsletter", "acumbamail", "phplist", "mailpoet"]
            .contains(where: { CategoryText.containsBytes(mailer, $0) }) {
            return "X-Mailer: \(headers["x-mailer"] ?? "")"
        }
        return nil
    }

    /// True when the sender's address is one that machines send from (noreply@, orders@, …).
    var isAutomatedSender: Bool {
        let parts = local.split(whereSeparator: { "+.=_".contains($0) }).map(String.init)
        let head = parts.first ?? local
        return CategoryVocabulary.automatedLocalParts.contains(local)
            || CategoryVocabulary.automatedLocalParts.contains(head)
            || isNoReplySender
            || local.hasPrefix("bounce") || local.contains("newsletter") || local.contains("notification")
            || ["bounce.", "bounces.", "e.", "em.", "mailer.", "news.", "newsletter.", "marketing.", "notifications.",
                "notify.", "alerts.", "updates.", "info."].contains { domain.hasPrefix($0) }
    }

    /// True when the sender's address says not to answer it (noreply@, do-not-reply@, …).
    var isNoReplySender: Bool {
        ["noreply", "no-reply", "no.reply", "no_reply", "donotreply", "do-not-reply", "do_not_reply"].contains { local.contains($0) }
    }

    /// True when the sender's address sells (newsletter@, offers@, …).
    var isMarketingSender: Bool {
        let head = local.split(whereSeparator: { "+.=_-".contains($0) }).first.map(String.init) ?? local
        return CategoryVocabulary.marketingLocalParts.contains(local)
            || CategoryVocabulary.marketingLocalParts.contains(head)
            || ["news.", "newsletter.", "marketing.", "offers.", "promo.", "deals.", "shop."].contains { domain.hasPrefix($0) }
    }

    /// A sign the message was sent to many at once, named for the reason.
    var bulkMarker: String? {
        if listUnsubscribe != nil { return "a List-Unsubscribe header" }
        if ["bulk", "junk", "list"].contains(precedence) { return "Precedence: \(precedence)" }
        if let name = header(withPrefixIn: CategoryVocabulary.marketingHeaderPrefixes) { return "the \(Self.fieldName(name)) header of a mailing platform" }
        if input.headers["feedback-id"] != nil { return "a Feedback-ID header, as bulk senders use" }
        if let platform = marketingPlatform { return "it was sent through \(platform)" }
        if let name = header(withPrefixIn: CategoryVocabulary.sendingPlatformHeaderPrefixes) {
            return "the \(Self.fieldName(name)) header of a sending platform"
        }
        if let path = bulkReturnPath { return "a bulk sender's return path (\(path))" }
        return nil
    }

    /// A Return-Path that bulk senders use — one address per recipient or per message
    /// (VERP: `bounce-…@`, `bounces+…@`, a long generated local part) — rather than the
    /// address of a person; nil otherwise.
    var bulkReturnPath: String? {
        guard let value = input.headers["return-path"]?.lowercased() else { return nil }
        let address = value.trimmingCharacters(in: CharacterSet(charactersIn: "<> "))
        guard let at = address.lastIndex(of: "@"), address != input.senderAddress else { return nil }
        let local = address[..<at]
        // Tokens of ordinary mail: bounce address tag validation and sender rewriting (BATV, SRS).
        if ["prvs=", "btv1=", "srs0=", "srs1="].contains(where: { local.hasPrefix($0) }) { return nil }
        if local.hasPrefix("bounce") || local.hasPrefix("bnc") || local.contains("bounces+") || local.contains("bounce-")
            || local.contains("bounce_") || local.contains("bounce+") {
            return address
        }
        // A generated token: long, and more than a quarter digits or no vowels.
        let characters = Array(local)
        let digits = characters.filter(\.isNumber).count
        if characters.count >= 24 && (digits * 4 >= characters.count || !characters.contains(where: { "aeiou".contains($0) })) {
            return address
        }
        return nil
    }

    /// Evidence of an offer: subject words count double.
    var promotionScore: (score: Int, example: String?) {
        var score = 0
        var example: String?
        for word in CategoryVocabulary.promotionWords {
            if CategoryText.contains(subject, word) {
                score += 2
                example = example ?? word
            } else if CategoryText.contains(opening, word) {
                score += 1
                example = example ?? word
            }
        }
        return (score, example)
    }

    /// Evidence of a receipt, order, bill or account notice: subject words count double.
    var transactionScore: (score: Int, example: String?) {
        var score = 0
        var best: (String, Int)?
        for (phrase, weight) in CategoryVocabulary.transactionPhrases {
            var found = 0
            if CategoryText.contains(subject, phrase) { found = weight * 2 } else if CategoryText.contains(opening, phrase) { found = weight }
            if found > 0 {
                score += found
                if best == nil || found > best!.1 { best = (phrase, found) }
            }
        }
        return (score, best?.0)
    }

    /// A strong offer in the subject: a discount or one of `strongPromotionPhrases`.
    var strongOffer: String? {
        if subject.hasPrefix("adv:") || subject.hasPrefix("[adv]") || subject.hasPrefix("adv ") { return "ADV:" }
        if let discount = CategoryText.discount(in: subject) { return discount }
        return CategoryText.first(of: CategoryVocabulary.strongPromotionPhrases, in: subject)
    }

    /// A `[tag]` at the start of the subject (after Re:/Fwd:), lowercased.
    var subjectTag: String? {
        var rest = Substring(subject)
        while true {
            let trimmed = rest.drop { $0 == " " }
            if let prefix = ["re:", "fwd:", "fw:", "aw:", "sv:"].first(where: { trimmed.hasPrefix($0) }) {
                rest = trimmed.dropFirst(prefix.count)
                continue
            }
            rest = trimmed
            break
        }
        guard rest.first == "[", let close = rest.firstIndex(of: "]") else { return nil }
        let tag = rest[rest.index(after: rest.startIndex)..<close].trimmingCharacters(in: .whitespaces)
        return tag.isEmpty || tag.count > 40 ? nil : tag
    }

    /// A recipient that is a mailing list's address (its local part is the subject's tag or
    /// reads like a list's: -devel, -users, -talk, …, or its domain is lists.…).
    func listRecipient(tag: String?) -> String? {
        let listWords = ["-devel", "-dev", "-users", "-user", "-talk", "-announce", "-discuss", "-list", "-general", "-help", "-bugs", "-patches"]
        for person in input.to + input.cc {
            let address = person.email.lowercased()
            guard let at = address.lastIndex(of: "@") else { continue }
            let local = String(address[..<at])
            let domain = String(address[address.index(after: at)...])
            if let tag, tag.lowercased().split(whereSeparator: { !$0.isLetterOrDigit }).joined(separator: "-") == local
                || tag.lowercased() == local { return address }
            if domain.hasPrefix("lists.") || domain.contains(".lists.") || domain == "googlegroups.com" { return address }
            if listWords.contains(where: { local.hasSuffix($0) }) { return address }
        }
        return nil
    }

    /// A sign of a classic mailing list: a Sender or Return-Path of the list's owner
    /// (owner-x@, x-owner@, x-bounces@, x-request@) or a Mailing-List / X-Mailing-List field.
    var listManager: String? {
        for name in ["sender", "return-path", "errors-to"] {
            guard let value = input.headers[name]?.lowercased() else { continue }
            let address = value.trimmingCharacters(in: CharacterSet(charactersIn: "<> "))
            let local = address.split(separator: "@").first.map(String.init) ?? address
            if local.hasPrefix("owner-") || local.hasSuffix("-owner") || local.hasSuffix("-bounces") || local.hasSuffix("-request")
                || local.contains("-bounces+") || local.contains("+bounces-") {
                return "\(name.capitalized): \(address)"
            }
        }
        for name in ["mailing-list", "x-mailing-list"] where input.headers[name] != nil { return name.capitalized }
        return nil
    }

    /// What bulk or automated mail the rules did not decide may still be: promotions or
    /// updates; social only when it speaks like a social network, forums only when it came
    /// through a list with no marketing platform behind it. (Issue 35: with all five open, the
    /// model read commercial newsletters as forums or social one time in five.)
    var bulkAlternatives: Set<AICategory> {
        var open: Set<AICategory> = [.promotions, .updates]
        if socialPhrase != nil { open.insert(.social) }
        if listId != nil, marketingPlatform == nil, !oneClickUnsubscribe,
           header(withPrefixIn: CategoryVocabulary.marketingHeaderPrefixes) == nil { open.insert(.forums) }
        return open
    }

    /// The disclaimer election law puts on a campaign's mail ("Paid for by … for Congress"),
    /// at the end of the body: such mail asks for votes, money or time — Gmail's Promotions
    /// holds fundraising with the offers. Not the notice of mail sent at public expense.
    var campaignDisclaimer: String? {
        guard CategoryText.contains(closing, "paid for by"),
              !["official funds", "taxpayer expense", "public expense"].contains(where: { CategoryText.contains(closing, $0) })
        else { return nil }
        return "paid for by"
    }

    /// A campaigns' sending and fundraising platform (`CategoryVocabulary.campaignPlatformDomains`)
    /// named by the sender, Return-Path, List-Unsubscribe or Sender field.
    var campaignPlatform: String? {
        let places = [domain, input.headers["return-path"], input.headers["list-unsubscribe"], input.headers["sender"]]
            .compactMap { $0?.lowercased() }
        return CategoryVocabulary.campaignPlatformDomains.first { platform in
            places.contains { CategoryText.containsBytes($0, platform) }
        }
    }

    /// What asks for money: a link to a donation platform (`CategoryVocabulary.donationPlatformDomains`)
    /// anywhere in the text read, or an ask (`CategoryVocabulary.fundraisingAskPhrases`) in the
    /// subject or opening — what the message is about, not a "Donate" link in a footer.
    var fundraisingAsk: String? {
        if let platform = CategoryVocabulary.donationPlatformDomains.first(where: {
            CategoryText.containsBytes(opening, $0) || CategoryText.containsBytes(closing, $0)
        }) {
            return platform
        }
        return CategoryText.first(of: CategoryVocabulary.fundraisingAskPhrases, in: text)
    }

    /// True when the sender writes like a person: not an automated address and not bulk mail.
    var isPersonal: Bool { !isAutomatedSender && bulkMarker == nil }

    /// The first social-network phrase in the subject.
    var socialPhrase: String? { CategoryText.first(of: CategoryVocabulary.socialPhrases, in: subject) }
}
