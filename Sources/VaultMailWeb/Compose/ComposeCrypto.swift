import Foundation
import Hummingbird
import VaultMailCore

/// The composer's lock (issue 32): what sending will do to the message's encryption, worked
/// out by Core (`ComposeEmailService.cryptoPlan`) from the recipients, the conversation and the
/// switches, shown under the body and asked again by the script as recipients change.
extension WebApp {
    /// `POST /compose/crypto`: the composer's fields → the plan as JSON.
    func addComposeCryptoRoute(to router: Router<WebRequestContext>) {
        router.post("/compose/crypto") { _, context -> Response in
            let form = ComposeForm(try context.form(ComposeForm.Posted.self), defaultAccount: "")
            let plan = await self.cryptoPlan(form.content, recipients: form.recipientAddresses, choice: form.crypto)
            return Pages.json(CryptoState(plan))
        }
    }

    /// What sending `content` to `recipients` with `choice` will do; nil without OpenPGP.
    func cryptoPlan(_ content: DraftContent, recipients: [String], choice: CryptoChoice) async -> CryptoPlan? {
        await mail.compose.cryptoPlan(accountId: content.accountId, recipients: recipients, threadId: content.threadId,
                                      inReplyTo: content.inReplyTo, choice: choice)
    }

    /// The lock's state as the script shows it.
    struct CryptoState: Encodable {
        /// `encrypted`, `signed`, `plain` or `problem` (the composer's `data-state`).
        var state: String
        var summary: String

        init(_ plan: CryptoPlan?) {
            guard let plan else {
                (state, summary) = ("plain", "Not encrypted: encryption isn't available here.")
                return
            }
            state = plan.problem != nil ? "problem" : plan.encrypt ? "encrypted" : plan.sign ? "signed" : "plain"
            summary = plan.summary
        }
    }
}
