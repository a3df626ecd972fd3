import Foundation
import Testing
import VaultMailCore
import VaultMailTesting

@Suite("Writing: message text, language, cues, the fact guard and tidying (issue 16)")
struct WritingTextTests {
    // MARK: Message text

    @Test("A reply's own text: quote, attribution, signature, sign-off and greeting are left out")
    func ownText() {
        let body = """
            Hi Ada,

            Can we move the budget review to Thursday?
            The numbers are not ready yet.

            Best regards,
            Anna Berg
            Finance

            On Mon, Jan 12, 2026 at 3:00 PM Ada Lovelace <
            ada@example.com> wrote:
            > Shall we meet on Wednesday?
            > Ada
            """
        let text = MessageText.ownText(body)
        #expect(text == "Can we move the budget review to Thursday?\nThe numbers are not ready yet.")
    }

    @Test("Outlook headers, \"-- \" signatures and device lines end the own text; a forward keeps what it forwards")
    func otherQuoteStyles() {
        let outlook = "Sounds good, see you then.\n\nFrom: Bob <bob@example.org>\nSent: Monday\nTo: Ada\nSubject: lunch\n\nLunch at noon?"
        #expect(MessageText.ownText(outlook) == "Sounds good, see you then.")
        let signed = "The report is attached.\n-- \nBob Smith | +1 555 0100"
        #expect(MessageText.ownText(signed) == "The report is attached.")
        let phone = "Yes, I will bring the slides.\n\nSent from my iPhone"
        #expect(MessageText.ownText(phone) == "Yes, I will bring the slides.")
        let forward = "FYI.\n\n---------- Forwarded message ---------\nFrom: Carol <c@example.net>\nDate: Tue\nSubject: Offsite\n\nThe offsite moves to May."
        #expect(MessageText.ownText(forward) == "FYI.\n\nThe offsite moves to May.")
    }

    @Test("HTML-only mail is read through its text; a message with no text gives \"\"")
    func htmlAndEmpty() {
        var email = MailFixtures.email(accountId: "a", number: 1)
        email.bodyPlain = nil
        email.bodyHTML = "<html><head><style>p{}</style></head><body><p>Hello Ada,</p><p>Could you send the <b>contract</b>?</p></body></html>"
        #expect(MessageText.newText(of: email) == "Could you send the contract?")
        email.bodyPlain = "   \n"
        email.bodyHTML = "<img src=x>"
        #expect(MessageText.newText(of: email) == "")
        email.bodyHTML = nil
        email.bodyPlain = nil
        #expect(MessageText.newText(of: email) == "")
    }

    @Test("Sentences: wrapped lines joined, abbreviations and decimals kept, list items split")
    func sentences() {
        let text = "We agreed on the plan, e.g. the Q3 budget of 2.5 million.\nAnna will send\nthe slides. Dr. Smith joins too!\n- item one\n- item two"
        #expect(MessageText.sentences(text) == [
            "We agreed on the plan, e.g. the Q3 budget of 2.5 million.", "Anna will send the slides.", "Dr. Smith joins too!",
            "- item one", "- item two",
        ])
    }

    @Test("Shortened at a sentence end when one is near, else at a word with …")
    func shortened() {
        #expect(MessageText.shortened("One two three. Four five six seven eight.", to: 20) == "One two three.")
        #expect(MessageText.shortened("Onetwothree fourfivesix seveneight", to: 20) == "Onetwothree…")
        #expect(MessageText.firstName(name: "Anna Berg", address: "anna@x.org") == "Anna")
        #expect(MessageText.firstName(name: "Berg, Anna", address: "anna@x.org") == "Anna")
        #expect(MessageText.firstName(name: nil, address: "bob@x.org") == "bob")
    }

    // MARK: Language

    @Test("Language of a message, in seven languages", arguments: [
        ("Hi, can you meet at 3pm tomorrow to go over the budget? Anna", "en"),
        ("Hallo, kannst du mir bitte bis morgen die Zahlen schicken? Danke!", "de"),
        ("Bonjour, pouvez-vous me confirmer la réunion de demain ? Merci", "fr"),
        ("Hola, ¿puedes enviarme el informe mañana? Gracias", "es"),
        ("Ciao, puoi mandarmi il documento domani? Grazie mille", "it"),
        ("Hoi, kun je morgen de cijfers naar mij sturen? Bedankt", "nl"),
        ("Olá, você pode me enviar o relatório amanhã? Obrigado", "pt"),
    ])
    func detect(text: String, language: String) {
        #expect(LanguageDetector.detect(text) == language)
    }

    @Test("Unsure is nil: too short, no words, or mixed")
    func unsure() {
        #expect(LanguageDetector.detect("OK") == nil)
        #expect(LanguageDetector.detect("12:30 → 14:00") == nil)
        #expect(LanguageDetector.detect("") == nil)
    }

    @Test("Every plain phrase reads as its own language", arguments: ["en", "de", "fr", "es", "it", "nl", "pt"])
    func phrasesFit(language: String) {
        for intent in ReplyIntent.allCases {
            for context in [ReplyPhrasebook.Context.meeting, .request, .offer] {
                let phrase = ReplyPhrasebook.phrase(intent, context: context, language: language)
                #expect(LanguageDetector.fits(phrase, language: language), "\(language) \(intent): \(phrase)")
            }
        }
    }

    // MARK: Cues

    @Test("Cues: a question with a time, a request without one, an offer, a plain notice")
    func cues() {
        let meeting = MessageCues(text: "Hi, can you meet at 3pm tomorrow to go over the budget?", language: "en")
        #expect(meeting.asks && meeting.proposesTime && meeting.aboutMeeting)
        let request = MessageCues(text: "Please send me the signed contract.", language: "en")
        #expect(request.asks && !request.proposesTime && !request.aboutMeeting)
        let offer = MessageCues(text: "I can send you the slides if that helps.", language: "en")
        #expect(!offer.asks && offer.offers)
        let notice = MessageCues(text: "The report is attached.", language: "en")
        #expect(!notice.asks && !notice.offers && !notice.proposesTime)
        let german = MessageCues(text: "Können Sie am Donnerstag um 15 Uhr kommen?", language: "de")
        #expect(german.asks && german.proposesTime && german.formal)
        #expect(MessageCues(text: "Rendez-vous à 15h30 ?", language: "fr").proposesTime)
        #expect(!MessageCues(text: "It costs 30 dollars", language: "en").proposesTime)
    }

    // MARK: Fact guard

    @Test("The fact guard drops a sentence that invents a place, a time, a date, a number, an address or a link")
    func factGuard() {
        let guardrail = FactGuard(sources: ["Hi, can you meet at 3pm tomorrow to go over the budget? Anna", "Anna Berg", "anna@example.org"])
        #expect(guardrail.isGrounded("Sure, I'd be happy to meet you tomorrow at 3pm."))
        #expect(guardrail.isGrounded("Sounds good, Anna."))
        #expect(guardrail.introducedFacts(in: "Sure, I'd be happy to meet you tomorrow at 3pm at the Anna Berg Hotel.") == ["Hotel"])
        #expect(guardrail.introducedFacts(in: "Could we do 4pm instead?") == ["4pm"])
        #expect(guardrail.introducedFacts(in: "Could we do Thursday instead?") == ["Thursday"])
        #expect(guardrail.introducedFacts(in: "See you at 15:00.") == ["15", "00"] || !guardrail.isGrounded("See you at 15:00."))
        #expect(!guardrail.isGrounded("Send it to bob@example.org please."))
        #expect(guardrail.isGrounded("I will write to anna@example.org."))
        #expect(!guardrail.isGrounded("The agenda is on https://evil.example.com/x."))
        #expect(!guardrail.isGrounded("Bring Monica along."))
        #expect(!guardrail.isGrounded("Monica Geller will join."), "a name at the start, followed by another")
        #expect(guardrail.isGrounded("Great, see you then."))
        #expect(guardrail.isGrounded("May I bring the budget?"), "May starting a sentence is a verb")
        #expect(guardrail.grounded(["Yes.", "See you on Friday.", "Thanks."]) == ["Yes.", "Thanks."])
    }

    @Test("In German only numbers, dates and addresses are checked (every noun is capitalised)")
    func germanGuard() {
        let guardrail = FactGuard(sources: ["Kannst du morgen um 15 Uhr zur Besprechung kommen?"], language: "de")
        #expect(guardrail.isGrounded("Gerne, ich komme morgen zur Besprechung mit dem Bericht."))
        #expect(!guardrail.isGrounded("Gerne, ich komme um 16 Uhr."))
        #expect(!guardrail.isGrounded("Gerne, am Freitag."))
    }

    // MARK: Tidying

    @Test("A generated reply is tidied: one line, no self-talk, no placeholder or sign-off, cut-off sentences dropped")
    func cleanReply() {
        #expect(GeneratedText.cleanReply("Sure, 3pm works for me\nBest regards,\nAda") == "Sure, 3pm works for me.")
        #expect(GeneratedText.cleanReply("Sorry, I can't make it. Best regards, [Your Name]") == "Sorry, I can't make it.")
        #expect(GeneratedText.cleanReply("Sorry for the misunderstanding, but as an email assistant I cannot reply.") == "")
        #expect(GeneratedText.cleanReply("Sure. I'll be there. I'll bring snacks. And drinks.") == "Sure. I'll be there.")
        #expect(GeneratedText.cleanReply("Sure, I'd be happy to meet you tomorrow at 3pm. We can discuss the numbers and any adjustments.")
                == "Sure, I'd be happy to meet you tomorrow at 3pm.")
        #expect(GeneratedText.cleanReply("Sure, I would be very happy to meet you tomorrow to talk about the budget and to bring the") == "")
        #expect(GeneratedText.cleanReply("\"Thanks, got it!\"") == "Thanks, got it!")
        #expect(GeneratedText.cleanReply("thanks, **got it**.") == "Thanks, got it.")
    }

    @Test("A generated summary becomes sentences: bullets, lead-ins and self-talk out")
    func summarySentences() {
        let raw = "Here is a summary of the conversation:\n- In this conversation, Anna asks for the budget by Friday.\n- Bob will send it\n3. As an AI, I cannot know more."
        #expect(GeneratedText.summarySentences(raw) == ["Anna asks for the budget by Friday.", "Bob will send it."])
    }
}
