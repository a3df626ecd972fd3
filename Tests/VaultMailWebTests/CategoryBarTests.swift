import Foundation
import Testing
import VaultMailCore
import VaultMailStore
import VaultMailTesting
@testable import VaultMailWeb

@Suite("Web app: the conversation's category bar (issue 15, AC-A-04)", .serialized)
struct CategoryBarTests {
    // The limit only stops a hang: about 2 s alone, this test took 106 s beside the module's
    // other suites on a loaded 2-core machine.
    @Test("The bar shows the category and why; Move to Primary is the user's correction (JSON for the script, a redirect with a notice for a form); the Promotions tab follows",
          .timeLimit(.minutes(5)))
    func moveAndWhy() async throws {
        try await WebFixture.with { web in
            let id = web.account.id
            var sale = MailFixtures.email(accountId: id, number: 1, threadId: "5a1e", from: "shop@shoes.example", subject: "50% off shoes today only!")
            sale.toAddresses = [Participant(email: "me@example.com")]
            let later = MailFixtures.email(accountId: id, number: 2, threadId: "1a7e", from: "shop@shoes.example", subject: "Spring collection")
            try await web.store([sale, later])
            let categories = GRDBCategoryRepository(database: web.database)
            #expect(try await CategorizeEmailsUseCase(repository: categories, model: nil).categorizePending() == 2)
            let session = try await web.signIn()

            let page = try await web.get("/mail?box=inbox&t=5a1e", cookie: session.cookie).text
            #expect(page.contains("<span class=\"pill category-current\" data-category=\"promotions\">Promotions</span>"))
            #expect(page.contains("Why this category?"))
            #expect(page.contains("Decided by its headers:</strong> its subject is an offer (&#39;50% off&#39;)")
                    || page.contains("Decided by its headers:</strong> its subject is an offer ('50% off')"), "\(page.firstMatch(of: /category-why.{0,300}/)?.0 ?? "")")
            #expect(page.contains("value=\"categorize:primary:5a1e\""))
            #expect(!page.contains("value=\"categorize:promotions:5a1e\""), "no button for the category it is in")
            let promotionsTab = try await web.get("/mail?box=inbox&cat=promotions", cookie: session.cookie).text
            #expect(promotionsTab.contains("50% off shoes today only!"))

            let json = [("Accept", "application/json")]
            let moved = try await web.post("/actions", "one=categorize:primary:5a1e&csrf=\(session.csrf)", cookie: session.cookie, extra: json)
            #expect(moved.status == 200)
            #expect(moved.text.contains("Moved to Primary. Later mail from shop@shoes.example goes there too (1 other message moved with it)."), "\(moved.text)")
            #expect(try await categories.decision(emailId: sale.id)?.source == .user)
            #expect(try await web.app.emailRepository.getThread(id: "5a1e")?.category == .primary)
            #expect(try await web.app.emailRepository.getThread(id: "1a7e")?.category == .primary)
            let after = try await web.get("/mail?box=inbox&t=5a1e", cookie: session.cookie).text
            #expect(after.contains("data-category=\"primary\">Primary</span>"))
            #expect(after.contains("You put this conversation here"))

            let form = try await web.post("/actions", "one=categorize:forums&t[]=5a1e&csrf=\(session.csrf)&return=%2Fmail%3Fbox%3Dinbox%26t%3D5a1e",
                                          cookie: session.cookie)
            #expect(form.status == 303)
            #expect(form.headers["location"]?.hasPrefix("/mail?box=inbox&t=5a1e&notice=Moved") == true, "\(form.headers["location"] ?? "")")
            #expect(try await web.app.emailRepository.getThread(id: "5a1e")?.category == .forums)

            let bad = try await web.post("/actions", "one=categorize:spam:5a1e&csrf=\(session.csrf)", cookie: session.cookie, extra: json)
            #expect(bad.status == 400)
        }
    }
}
