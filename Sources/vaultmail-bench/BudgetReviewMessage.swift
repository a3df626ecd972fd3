import Foundation

/// The one constructed message of the `ai` suite: a "Quarterly budget review" among the real
/// mail, so the suite can report where search by meaning ranks it for "financial planning
/// meeting". None of the query's words is in it (nor a word sharing their stem), so only its
/// meaning can find it.
enum BudgetReviewMessage {
    static let subject = "Quarterly budget review"
    static let messageId = "quarterly-budget-review-2010q3@finance.example.org"
    /// A Tuesday after the third quarter closed.
    static let date = Date(timeIntervalSince1970: 1_286_901_000) // 2010-10-12 16:30 UTC

    /// The message as a Maildir file: lines end in LF, as the corpus's files do (`W=` in the file name counts them).
    static let raw = Array("""
        Message-ID: <\(messageId)>
        Date: Tue, 12 Oct 2010 09:30:00 -0700
        From: Maria Chen <maria.chen@finance.example.org>
        To: Department leads <leads@finance.example.org>
        Subject: \(subject)
        MIME-Version: 1.0
        Content-Type: text/plain; charset=us-ascii

        Hi all,

        Ahead of Thursday's review I have put the third-quarter numbers in the shared folder.
        Spending came in at $1.42M against a budget of $1.35M. Most of the overrun is the cloud
        hosting bill in August and the two contractor extensions on the billing project; travel
        and events were both under budget.

        For the fourth quarter the forecast assumes flat headcount and a 4% cut in vendor costs,
        which would bring the full year to within 2% of what the board approved in January.
        Please check your department's lines before Wednesday noon and send me corrections,
        especially any commitments that are not in the ledger yet.

        We will also go over next year's targets, so bring your first estimates.

        Thanks,
        Maria

        """.utf8)

    /// The corpus with this message added after the real mail.
    static func added(to corpus: SearchCorpus) -> SearchCorpus {
        SearchCorpus(originals: corpus.originals, messages: corpus.messages + [raw], dates: corpus.dates + [date],
                     distinctMessages: corpus.distinctMessages + 1)
    }
}
