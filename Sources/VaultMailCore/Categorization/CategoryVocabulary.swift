/// The words and names the header rules look for, written down in one place so the rules
/// read as sentences and `docs/ai-evaluation.md` can point at them.
public enum CategoryVocabulary {
    /// Social networks, media-sharing, dating and gaming-community sites (Gmail's "Social":
    /// "messages from social networks, media-sharing sites, online dating services, gaming
    /// platforms"). A sender at one of these domains or their subdomains is social.
    public static let socialDomains: Set<String> = [
        "facebook.com", "facebookmail.com", "instagram.com", "linkedin.com", "twitter.com", "x.com",
        "pinterest.com", "reddit.com", "redditmail.com", "tiktok.com", "snapchat.com", "tumblr.com",
        "quora.com", "meetup.com", "nextdoor.com", "discord.com", "discordapp.com", "twitch.tv",
        "youtube.com", "flickr.com", "vimeo.com", "soundcloud.com", "strava.com", "goodreads.com",
        "vk.com", "xing.com", "mastodon.social", "bsky.app", "threads.net", "whatsapp.com",
        "telegram.org", "tinder.com", "gotinder.com", "bumble.com", "hinge.co", "match.com",
        "okcupid.com", "steamcommunity.com", "myspace.com", "ok.ru", "weibo.com", "researchgate.net",
        "academia-mail.com", "couchsurfing.com", "letterboxd.com", "untappd.com", "plus.google.com",
        "mail.instagram.com", "tiktokv.com",
    ]

    /// Services whose mail is notifications about your work or accounts (Gmail's
    /// "Updates"): code hosting, issue trackers, monitoring, the sign-in of big providers.
    public static let notificationDomains: Set<String> = [
        "github.com", "gitlab.com", "bitbucket.org", "atlassian.net", "atlassian.com", "sentry.io",
        "circleci.com", "travis-ci.com", "travis-ci.org", "pagerduty.com", "statuspage.io",
        "accounts.google.com", "calendar.google.com", "trello.com", "asana.com", "slack.com",
        "zoom.us", "docusign.net", "readthedocs.org", "launchpad.net", "sourcehut.org",
        "paypal.com", "stripe.com", "id.apple.com", "email.apple.com", "accountprotection.microsoft.com",
    ]

    /// Public bodies' domains (a sender's domain within one of these): governments, their
    /// agencies and parliaments, and GovDelivery, the platform many of them send through. Their
    /// bulk mail is notices and newsletters of the office, never an offer: a public body may
    /// not advertise or raise funds with it (the U.S. House's franking rules, for one).
    public static let publicBodyDomains: Set<String> = [
        "gov", "mil", "govdelivery.com",
        "gov.uk", "parliament.uk", "gov.scot", "gov.wales", "gov.ie", "oireachtas.ie",
        "gc.ca", "canada.ca", "gov.au", "govt.nz", "gov.za", "gov.in", "go.jp", "go.kr", "gov.sg",
        "gov.br", "gob.mx", "gob.es", "gob.ar", "gouv.fr", "gouv.qc.ca", "bund.de", "bundestag.de",
        "admin.ch", "gv.at", "overheid.nl", "europa.eu", "gov.it", "gov.pl", "regeringen.se", "gov.il",
    ]

    /// Donation platforms (campaigns', parties' and charities' fundraising pages): mail that
    /// links to one asks for money, and Gmail files fundraising with offers, in Promotions.
    public static let donationPlatformDomains: [String] = [
        "actblue.com", "winred.com", "anedot.com", "ngpvan.com", "everyaction.com", "donorbox.org",
        "givebutter.com", "classy.org", "networkforgood.com", "gofundme.com", "crowdpac.com",
    ]

    /// Platforms that campaigns and advocacy groups send their mail and raise money through
    /// (Blue State Digital, NGP VAN / EveryAction, Action Network, ActionKit, Salsa): seen in
    /// the Return-Path, List-Unsubscribe or sender, they make bulk mail promotions, as
    /// Gmail files fundraising.
    public static let campaignPlatformDomains: [String] = [
        "bluestatedigital.com", "bsd.net", "myngp.com", "ngpvan.com", "everyaction.com", "actionnetwork.org",
        "actionkit.com", "salsalabs.com", "salsalabs.net",
    ]

    /// The words of an ask for money, read in the subject and the opening.
    public static let fundraisingAskPhrases: [String] = [
        "donate", "donation", "donations", "chip in", "pitch in", "make a contribution", "contribute today",
        "contribute now", "make a gift", "give today",
    ]

    /// Header fields only notification systems (trackers, code review, CI) send.
    public static let notificationHeaderPrefixes: [String] = [
        "x-github-", "x-gitlab-", "x-jira-", "x-bugzilla-", "x-launchpad-", "x-redmine-",
        "x-phabricator-", "x-gerrit-", "x-trac-", "x-sentry", "x-pagerduty",
    ]

    /// Header fields marketing platforms add (Mailchimp, Marketo, HubSpot, Klaviyo, …).
    public static let marketingHeaderPrefixes: [String] = [
        "x-mc-user", "x-mcpf", "x-mailchimp", "x-campaign", "x-campaignid", "x-campaign-id",
        "x-mktomail", "x-marketo", "x-hs-cid", "x-hubspot", "x-kmail", "x-klaviyo", "x-csa-complaints",
        "x-mailjet-campaign", "x-sfmc", "x-emarsys", "x-sailthru", "x-rpcampaign", "x-braze",
        "x-iterable", "x-ems-", "x-newsletter", "x-mandrill-user", "x-cm-", "x-mailer-campaign",
    ]

    /// Header fields of sending platforms (SendGrid, Amazon SES, Mailgun, SparkPost, Postmark,
    /// Mandrill, Marketo, iContact, Constant Contact): mail that came through them is sent by a
    /// program to many, never typed by a person to you.
    public static let sendingPlatformHeaderPrefixes: [String] = [
        "x-sg-eid", "x-sg-id", "x-ses-outgoing", "x-mailgun-", "x-msfbl", "x-pm-message-id", "x-mandrill",
        "x-sparkpost", "x-marketoid", "x-mktarchive", "x-ctct-id", "x-unsubscribe-web", "x-report-abuse",
        "x-complaints-to", "x-binding", "x-maillist-id", "x-job",
    ]

    /// Domains of marketing platforms, seen in Return-Path, List-Unsubscribe, List-Id or the
    /// sender.
    public static let marketingPlatformDomains: [String] = [
        "mcsv.net", "mcdlv.net", "rsgsv.net", "list-manage.com", "mailchimpapp.net", "mailchimp.com",
        "klaviyomail.com", "klaviyo.com", "mktomail.com", "marketo.org", "hubspotemail.net", "hs-email.net",
        "hubspotlinks.com", "ctctcdn.com", "rs6.net", "constantcontact.com", "createsend.com", "cmail19.com",
        "cmail20.com", "sailthru.com", "rsys1.com", "rsys2.com", "rsys5.net", "emarsys.net", "sendinblue.com",
        "brevo.com", "mailjet.com", "exacttarget.com", "sfmc-content.com", "braze.com", "iterable.com",
        "substack.com", "beehiiv.com", "convertkit.com", "ck.page", "mailerlite.com", "omnisend.com",
        "attentivemobile.com", "bluecore.com", "cheetahmail.com", "epsilon.com", "acemsrvc.com",
    ]

    /// Local parts (before the @) of addresses that send automatically.
    public static let automatedLocalParts: [String] = [
        "noreply", "no-reply", "no_reply", "donotreply", "do-not-reply", "do_not_reply", "notifications",
        "notification", "notify", "alerts", "alert", "auto-confirm", "autoconfirm", "confirm",
        "confirmation", "receipts", "receipt", "orders", "order", "order-update", "shipping", "shipment",
        "tracking", "billing", "invoice", "invoices", "payments", "payment", "statements", "security",
        "account", "accounts", "verify", "verification", "updates", "update", "reminders", "reminder",
        "calendar", "automated", "mailer", "robot", "bot", "system", "postmaster", "mailer-daemon",
        "newsletter", "newsletters", "news", "marketing", "offers", "deals", "promo", "promotions",
        "sales", "shop", "store", "hello", "info", "email", "mail", "specials", "rewards", "team",
        "digest", "support", "service", "customerservice", "customer-service", "members", "bounce",
        "bounces", "feedback", "survey", "events", "community", "booking", "bookings", "reservations",
        "documents", "tickets", "recommendations", "digest-noreply", "newsalerts", "contact", "admin",
        "care", "customercare", "help", "notice", "notices", "messages", "reply", "member", "membership",
        "welcome", "hi", "newsroom", "mailings", "campaign", "campaigns",
    ]

    /// Local parts that say the sender sells: newsletters and offers.
    public static let marketingLocalParts: Set<String> = [
        "newsletter", "newsletters", "news", "marketing", "offers", "deals", "promo", "promotions",
        "sales", "shop", "store", "specials", "rewards", "hello",
    ]

    /// Subjects of delivery reports (bounces).
    public static let bouncePhrases: [String] = [
        "undelivered mail", "delivery status notification", "returned mail", "delivery has failed",
        "mail delivery failed", "undeliverable", "delivery failure", "failure notice",
        "delivery notification", "non-delivery", "banned file",
    ]

    /// Offers that make a message promotional by themselves ("50% off shoes today only!").
    /// Percent and money discounts ("20% off", "$10 off") are found apart from these.
    public static let strongPromotionPhrases: [String] = [
        "free shipping", "buy one get one", "buy one, get one", "bogo", "coupon", "promo code", "discount code",
        "flash sale", "clearance", "black friday", "cyber monday", "deal of the day",
        "limited time offer", "limited-time offer", "today only", "ends tonight", "ends today",
        "last chance", "sale ends", "final hours", "huge savings", "lowest price", "lowest prices",
        "shop now", "buy now", "order now", "act now", "exclusive offer", "special offer",
        "free gift", "save up to", "% discount", "for free!", "yours for free", "don't miss out",
        "sale!", "big sale", "summer sale", "winter sale", "new arrivals", "members-only",
        "early access", "just dropped", "best sellers", "bestsellers", "gift guide", "special deal",
        "hot deals", "price drop", "prices drop",
    ]

    /// Words of offers and newsletters, each a little evidence of promotions.
    public static let promotionWords: [String] = [
        "sale", "deal", "deals", "offer", "offers", "save", "savings", "discount", "shop", "shopping",
        "exclusive", "free", "gift", "gifts", "win", "winner", "bonus", "special", "newsletter",
        "webinar", "introducing", "sneak peek", "launch", "trending", "rewards", "points", "collection",
        "subscribe", "unsubscribe", "view in browser", "view this email in your browser",
        "view it in your browser", "you're receiving this", "you are receiving this", "%", "brand new",
        "guaranteed", "amazing", "don't miss", "hurry", "limited", "cheap", "cash", "earn", "money",
        "order today", "click here", "visit our", "our new", "check out", "weekly", "this week's",
        // Fundraising and advocacy asks ("Paid for by" is the disclaimer of campaign mail).
        "donate", "donation", "donations", "chip in", "pitch in", "contribute", "contribution", "petition",
        "fundraising", "fundraiser", "paid for by", "add your name", "give today", "matched", "rush",
        "volunteer", "deadline",
    ]

    /// What receipts, orders, shipping, bills, statements and account or security notices
    /// say; the number is its weight.
    public static let transactionPhrases: [(String, Int)] = [
        ("your order", 3), ("order confirmation", 3), ("order #", 3), ("order number", 3), ("order no", 2),
        ("has shipped", 3), ("have shipped", 3), ("shipped", 2), ("shipping confirmation", 3), ("shipment", 2),
        ("out for delivery", 3), ("delivered", 2), ("delivery", 1), ("tracking number", 3), ("track your", 2),
        ("receipt", 3), ("invoice", 3), ("payment", 2), ("paid", 1), ("purchase", 1), ("transaction", 2),
        ("statement", 2), ("your bill", 3), ("billing", 2), ("balance", 1), ("due", 1), ("refund", 2),
        ("your account", 2), ("account", 1), ("password", 3), ("sign-in", 3), ("sign in", 2), ("signin", 2),
        ("login", 2), ("log in", 1), ("logged in", 2), ("security alert", 3), ("security", 1),
        ("verification code", 3), ("verification", 2), ("verify", 2), ("one-time", 2), ("2-step", 3),
        ("two-factor", 3), ("confirm your", 2), ("confirmation", 2), ("confirmed", 2), ("reset", 2),
        ("reservation", 3), ("booking", 3), ("booked", 2), ("itinerary", 3), ("check-in", 2),
        ("boarding pass", 3), ("e-ticket", 3), ("your ticket", 2), ("appointment", 2), ("reminder", 2),
        ("renewal", 2), ("renew", 1), ("subscription", 1), ("expires", 2), ("expiring", 2), ("expired", 2),
        ("has been updated", 2), ("notification", 1), ("alert", 1), ("activity", 1), ("report", 1),
        ("summary", 1), ("deposit", 2), ("withdrawal", 2), ("transfer", 1), ("terms of service", 2),
        ("privacy policy", 1), ("approved", 2), ("declined", 2), ("failed", 1), ("request", 1),
        ("your application", 2), ("status", 1), ("build", 1), ("pull request", 3), ("merge request", 3),
        ("commented on", 1), ("assigned to you", 3), ("ticket #", 3), ("case #", 3), ("new device", 2),
        ("security code", 3), ("access code", 2), ("your code", 2), ("password reset", 3),
        ("confirm your subscription", 3), ("confirm subscription", 3), ("subscription confirmed", 3),
        ("confirmation of subscription", 3), ("activate your account", 3), ("email preferences", 2),
    ]

    /// What social networks' notifications say.
    public static let socialPhrases: [String] = [
        "friend request", "mentioned you", "tagged you", "commented on your", "liked your",
        "new follower", "followed you", "is now following", "invitation to connect", "wants to connect",
        "accepted your invitation", "people you may know", "endorsed you", "retweeted", "reacted to your",
        "shared a post", "new connection", "your network", "birthday", "sent you a friend",
        "new message from", "viewed your profile", "added you", "your post", "your photo",
        "friend invite", "invited you to", "favourited your", "favorited your", "new match",
    ]
}
