import Foundation
import Testing
import VaultMailCore

/// The rules that read how a message was sent (issue 35): sending platforms and bulk return
/// paths, what bulk mail may still be when the rules do not decide, fundraising asks,
/// subscription notices, and lists that look like newsletters. One short written message each:
/// these prove the rule, not how well the categorizer does (docs/ai-evaluation/categories.md).
@Suite("Categorization: sender infrastructure")
struct CategorySenderInfrastructureTests {

    @Test("Mail through a sending platform (its X-SG-EID header) from a person-like address is not a person's mail")
    func sendingPlatformHeader() {
        let verdict = HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Dana Reyes <dana@campaign.example>", subject: "Thank you for joining", headers: ["x-sg-eid": "abc123"]))
        #expect(verdict.decision?.category != .primary)
        #expect(verdict.lean?.reason.contains("X-Sg-Eid") ?? verdict.decision?.reason.contains("X-Sg-Eid") ?? false)
    }

    @Test("A bulk return path (bounce-…@, a generated token) marks bulk mail; a person's own return path does not")
    func bulkReturnPath() {
        let verp = HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Dana Reyes <dana@campaign.example>", subject: "More news",
            headers: ["return-path": "<bounce_3200000599_pod12@bounce.mailer.example>"]))
        #expect(verp.lean?.reason.contains("return path") == true)
        let token = HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Dana Reyes <dana@campaign.example>", subject: "More news",
            headers: ["return-path": "<0100016e09c3d960a7332165a112c469@mail.example>"]))
        #expect(token.lean?.reason.contains("return path") == true)
        let person = HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Dana Reyes <dana@campaign.example>", subject: "More news", headers: ["return-path": "<dana@campaign.example>"]))
        #expect(person.decision?.category == .primary)
        let batv = HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Dana Reyes <dana@campaign.example>", subject: "More news",
            headers: ["return-path": "<prvs=0123456789ab=dana@campaign.example>"]))
        #expect(batv.decision?.category == .primary)
    }

    @Test("Bulk mail the rules leave open may be promotions or updates only: not forums, not social")
    func bulkAlternatives() throws {
        let lean = try #require(HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Policy Institute <info@institute.example>", subject: "What the new figures mean",
            headers: ["list-unsubscribe": "<mailto:u@institute.example>"])).lean)
        #expect(lean.candidates == [.promotions, .updates])
        let social = try #require(HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Club <info@club.example>", subject: "Kim mentioned you in a comment",
            headers: ["list-unsubscribe": "<mailto:u@club.example>"])).lean)
        #expect(social.candidates.contains(.social))
        #expect(!social.candidates.contains(.forums))
    }

    @Test("Bulk mail with nothing of a notice leans promotions; a bare no-reply address leans updates")
    func bulkDefaultLean() {
        let platform = HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Team <team@group.example>", subject: "Hello again", headers: ["x-msfbl": "token"]))
        #expect(platform.lean?.category == .promotions)
        let noReply = HeaderCategoryRules.evaluate(CategoryRulesTests.input(from: "noreply@service.example", subject: "Hello again"))
        #expect(noReply.lean?.category == .updates)
    }

    @Test("Bulk mail linking to a donation platform, or asking for a donation in its opening, is promotions; a Donate word only in the footer is not an ask")
    func askForMoney() throws {
        var linked = CategoryRulesTests.input(
            from: "Dana Reyes <info@reyes.example>", subject: "Before midnight",
            body: "We are so close.", headers: ["list-unsubscribe": "<mailto:u@reyes.example>"])
        linked.closingText = "Give here: https://secure.actblue.com/donate/reyes-web Unsubscribe"
        let decision = try #require(HeaderCategoryRules.evaluate(linked).decision)
        #expect(decision.category == .promotions)
        #expect(decision.reason.contains("asks for money ('actblue.com')"))
        let asked = try #require(HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Shelter Trust <hello@shelter.example>", subject: "Tonight's news",
            body: "Would you make a gift to keep the doors open?", headers: ["list-unsubscribe": "<mailto:u@shelter.example>"])).decision)
        #expect(asked.category == .promotions)
        var footer = CategoryRulesTests.input(
            from: "Policy Institute <newsletters@institute.example>", subject: "What the new housing figures mean",
            body: "Our researchers read the census release.", headers: ["list-unsubscribe": "<mailto:u@institute.example>"])
        footer.closingText = "Support our work: donate. Unsubscribe"
        #expect(HeaderCategoryRules.evaluate(footer).decision == nil)
    }

    @Test("A public body's bulk mail is updates; a person at one writing to the user stays primary; a campaign's domain is not a public body")
    func publicBody() {
        let office = HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Congresswoman Dana Reyes <ca99dr.enews@mail.house.gov>", subject: "This week in Washington",
            headers: ["list-unsubscribe": "<https://reyes.house.gov/unsubscribe>"]))
        #expect(office.decision?.category == .updates)
        #expect(office.decision?.reason.contains("public body") == true)
        let agency = HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Agency <agency@public.govdelivery.com>", subject: "New guidance published", headers: ["precedence": "bulk"]))
        #expect(agency.decision?.category == .updates)
        let person = HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Kim Lee <kim.lee@agency.gov.uk>", subject: "Your question about the permit"))
        #expect(person.decision?.category == .primary || person.lean?.category == .primary)
        let campaign = HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Dana Reyes <info@reyesforcongress.example>", subject: "This week on the trail",
            headers: ["list-unsubscribe": "<https://reyesforcongress.example/u>"]))
        #expect(campaign.decision?.reason.contains("public body") != true && campaign.lean?.reason.contains("public body") != true)
    }

    @Test("A fundraising ask sent in bulk is promotions")
    func fundraising() throws {
        let decision = try #require(HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Friends of the Park <info@park.example>", subject: "Chip in before the deadline",
            body: "Can you donate 5 dollars tonight? Every contribution is matched.",
            headers: ["list-unsubscribe": "<mailto:u@park.example>"])).decision)
        #expect(decision.category == .promotions)
    }

    @Test("Bulk mail sent through a campaigns' platform (its Return-Path) is promotions; through a general marketing platform it only leans")
    func campaignPlatform() throws {
        let decision = try #require(HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Dana Reyes <info@reyes.example>", subject: "Our town hall this week", body: "Join us on Thursday.",
            headers: ["list-unsubscribe": "<mailto:u@reyes.example>", "return-path": "<bounce-12345-67@bounce.bluestatedigital.com>"])).decision)
        #expect(decision.category == .promotions)
        #expect(decision.reason.contains("bluestatedigital.com"))
        let general = HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Policy Institute <newsletters@institute.example>", subject: "Our town hall this week", body: "Join us on Thursday.",
            headers: ["list-unsubscribe": "<mailto:u@institute.example>", "return-path": "<bounce-12345-67@bf07x.hubspotemail.net>"]))
        #expect(general.decision == nil)
    }

    @Test("A request to confirm a subscription, sent in bulk, is updates")
    func subscriptionConfirmation() throws {
        let decision = try #require(HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "News Desk <news@paper.example>", subject: "Please confirm your subscription",
            body: "Confirm subscription to finish signing up.", headers: ["precedence": "bulk"])).decision)
        #expect(decision.category == .updates)
    }

    @Test("A discussion list with List-Post stays forums when it also offers one-click unsubscribe (RFC 8058)")
    func oneClickDiscussionList() throws {
        let decision = try #require(HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Sam Lee <sam@home.example>", to: ["users@lists.project.example"], subject: "Re: screen reader on boot",
            headers: ["list-id": "<users.lists.project.example>", "list-post": "<mailto:users@lists.project.example>",
                      "list-unsubscribe": "<mailto:users+unsubscribe@lists.project.example>",
                      "list-unsubscribe-post": "List-Unsubscribe=One-Click"], isReply: true)).decision)
        #expect(decision.category == .forums)
    }

    @Test("A List-Id with the list manager's return path is forums even from an address like mail@")
    func listManagerReturnPath() throws {
        let decision = try #require(HeaderCategoryRules.evaluate(CategoryRulesTests.input(
            from: "Chris <mail@chris.example>", to: ["tools@vger.example.org"], subject: "fstab: is the fourth field required?",
            headers: ["list-id": "<tools.vger.example.org>", "precedence": "bulk",
                      "return-path": "<tools+bounces-1234-me=example.com@vger.example.org>"])).decision)
        #expect(decision.category == .forums)
    }

    @Test("A campaign's 'Paid for by' disclaimer at the end of the body makes mail promotions, even with no bulk header; a person's reply quoting it stays primary")
    func campaignDisclaimer() throws {
        let body = "Dear friend,\n\nThe vote is next week.\n\n" + String(repeating: "More words. ", count: 80)
            + "\n\nPaid for by Friends of Dana Reyes\nPO Box 1, Springfield"
        let campaign = CategorizationInput(
            emailId: "e1", accountId: "a1", threadId: "t1", from: Participant(name: "Dana Reyes", email: "dana@reyes.example"),
            to: [Participant(email: "me@example.com")], subject: "The vote is next week",
            openingText: CategorizationInput.openingText(body: body, snippet: nil), closingText: CategorizationInput.closingText(body: body),
            ownAddresses: ["me@example.com"])
        #expect(campaign.closingText.hasSuffix("Paid for by Friends of Dana Reyes PO Box 1, Springfield"))
        let decision = try #require(HeaderCategoryRules.evaluate(campaign).decision)
        #expect(decision.category == .promotions)
        #expect(decision.reason.contains("Paid for by"))
        var reply = campaign
        reply.isReply = true
        #expect(HeaderCategoryRules.evaluate(reply).decision?.category == .primary)
        var official = campaign
        official.closingText = "This mass communication was paid for by official funds."
        #expect(HeaderCategoryRules.evaluate(official).decision?.category == .primary)
    }
}
