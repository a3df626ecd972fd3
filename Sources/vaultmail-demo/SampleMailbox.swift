import Foundation

/// The demo's mail: twenty messages already in Ada's inbox (two conversations among them,
/// some read) and the four that arrive while the daemon watches.
struct SampleMailbox: Sendable {
    static let owner = "Ada Lovelace <ada@example.org>"
    static let ownerAddress = "ada@example.org"

    let existing: [SampleMessage]
    /// The conversation the demo mutes.
    let offsite: SampleMessage
    /// Arrives before any rule is set: an ordinary notification.
    let lunch: SampleMessage
    /// Arrives from the VIP during quiet hours: notifies anyway.
    let fromVIP: SampleMessage
    /// Arrives during quiet hours from someone else: no banner.
    let duringQuietHours: SampleMessage
    /// A new reply in the muted conversation: no banner.
    let inMutedThread: SampleMessage

    static let vip = (name: "Grace Hopper", address: "grace@navy.example")

    init() {
        let hour: TimeInterval = 3600
        let day = 24 * hour
        let offsite = SampleMessage(
            "Alan Turing", "alan@bletchley.example", "Team offsite planning",
            "Hi all,\n\nShall we do the offsite in Manchester this year? I can book the hall for the 14th.\n\nAlan",
            age: 8 * day + 3 * hour, isRead: true)
        let offsiteReply1 = SampleMessage(
            "Katherine Johnson", "katherine@langley.example", "Re: Team offsite planning",
            "Manchester works for me. I'll check the train times and send them round.\n\nKatherine",
            age: 8 * day, isRead: true, replyTo: offsite)
        let offsiteReply2 = SampleMessage(
            "Alan Turing", "alan@bletchley.example", "Re: Team offsite planning",
            "Booked. Lunch is on the department; bring your own chess sets.\n\nAlan",
            age: 7 * day + 5 * hour, replyTo: offsiteReply1)
        let style = SampleMessage(
            "Dennis Ritchie", "dmr@bell-labs.example", "C style guide draft",
            "Here's a first cut of the style guide. Braces on the same line, tabs for indentation. Comments welcome.\n\ndmr",
            age: 6 * day + 2 * hour)
        let styleReply1 = SampleMessage(
            "Ken Thompson", "ken@bell-labs.example", "Re: C style guide draft",
            "Looks fine. I'd drop the section on goto; nobody reads it anyway.\n\nken",
            age: 5 * day + 7 * hour, replyTo: style)
        let styleReply2 = SampleMessage(
            "Dennis Ritchie", "dmr@bell-labs.example", "Re: C style guide draft",
            "Dropped. Version 2 is on the shared drive.\n\ndmr",
            age: 3 * day + 1 * hour, replyTo: styleReply1)
        existing = [
            SampleMessage("Margaret Hamilton", "margaret@apollo.example", "Apollo guidance review notes",
                          "Notes from Tuesday's review are below. The priority scheduling change is approved.\n\nMargaret",
                          age: 9 * day, isRead: true),
            offsite, offsiteReply1,
            SampleMessage("The Weekly Bit", "newsletter@weeklybit.example", "This week: ten compilers you should know",
                          "From FORTRAN to Swift: a short tour of the compilers that shaped programming.",
                          age: 7 * day + 9 * hour, isRead: true),
            offsiteReply2,
            SampleMessage("Barbara Liskov", "barbara@mit.example", "Substitution principle talk: slides",
                          "The slides from yesterday's talk are attached to the wiki page. Questions welcome.\n\nBarbara",
                          age: 6 * day + 6 * hour),
            style,
            styleReply1,
            SampleMessage("Edsger Dijkstra", "ewd@tue.example", "On the cruelty of really teaching computing",
                          "I have written up my thoughts on the matter; EWD1036 is in your pigeonhole.\n\nEdsger",
                          age: 5 * day + 2 * hour, isRead: true),
            SampleMessage(Self.vip.name, Self.vip.address, "Compiler demo next Tuesday",
                          "Ada, the A-0 demo is on for Tuesday at ten. Could you bring the punched cards?\n\nGrace",
                          age: 4 * day + 4 * hour),
            SampleMessage("Frances Allen", "fran@ibm.example", "Optimization meeting moved to 3 PM",
                          "Same room, later time. We'll go through the interprocedural analysis results.\n\nFran",
                          age: 4 * day),
            SampleMessage("Radia Perlman", "radia@example.net", "Algorhyme (final version)",
                          "I think that I shall never see / a graph more lovely than a tree.\n\nRadia",
                          age: 3 * day + 5 * hour, isRead: true),
            styleReply2,
            SampleMessage("Donald Knuth", "knuth@stanford.example", "A cheque for $2.56",
                          "You found an error on page 231 of volume 2. The cheque is in the post.\n\nDon",
                          age: 2 * day + 6 * hour),
            SampleMessage("Forge notifications", "notifications@forge.example", "[vaultmail] Issue #7: a demo newcomers can run",
                          "A new comment on issue #7: \"One command, real servers, no mocks.\"",
                          age: 2 * day),
            SampleMessage("Tim Berners-Lee", "timbl@cern.example", "Proposal: a web of documents",
                          "Vague but exciting, my manager says. Would you read the draft before Friday?\n\nTim",
                          age: 1 * day + 3 * hour),
            SampleMessage("Sophie Wilson", "sophie@acorn.example", "Instruction set, version 2",
                          "Version 2 of the instruction set is attached: fewer instructions, more registers.\n\nSophie",
                          age: 1 * day + 8 * hour),
            SampleMessage("Katherine Johnson", "katherine@langley.example", "Trajectory numbers for Thursday",
                          "I've checked the numbers by hand; they match the machine to eight places.\n\nKatherine",
                          age: 1 * day),
            SampleMessage("Hedy Lamarr", "hedy@example.com", "Frequency hopping patent: signatures needed",
                          "The patent office wants both signatures by Monday. Can you sign the copy at reception?\n\nHedy",
                          age: 20 * hour),
            SampleMessage("Claude Shannon", "claude@bell-labs.example", "Juggling club tonight?",
                          "Bring the unicycle. Seven o'clock in the lab.\n\nClaude",
                          age: 2 * hour),
        ]
        self.offsite = offsite
        lunch = SampleMessage("Alan Turing", "alan@bletchley.example", "Lunch on Friday?",
                              "Are you free for lunch on Friday? There's a new place near the station.\n\nAlan")
        fromVIP = SampleMessage(Self.vip.name, Self.vip.address, "Can you review my COBOL spec today?",
                                "Ada, the committee meets tomorrow. Could you read the spec this afternoon?\n\nGrace")
        duringQuietHours = SampleMessage("Frances Allen", "fran@ibm.example", "Cafeteria menu for next week",
                                         "Soup on Monday, fish on Friday, as ever.\n\nFran")
        inMutedThread = SampleMessage("Katherine Johnson", "katherine@langley.example", "Re: Team offsite planning",
                                      "Trains are at 8:15 and 9:40. I'll be on the early one.\n\nKatherine",
                                      replyTo: offsiteReply2)
    }
}
