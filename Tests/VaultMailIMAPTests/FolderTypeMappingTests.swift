import Testing
import VaultMailCore
import VaultMailIMAP

@Suite("FolderTypeMapping")
struct FolderTypeMappingTests {
    static func folder(_ path: String, _ attributes: Set<String> = [], delimiter: Character? = "/") -> IMAPFolder {
        IMAPFolder(path: path, delimiter: delimiter, attributes: attributes)
    }

    @Test(
        "AC-F-05: special-use attributes (RFC 6154 and Gmail's XLIST) give the folder type",
        arguments: [
            ("\\Sent", FolderType.sent), ("\\Drafts", .drafts), ("\\Trash", .trash), ("\\Junk", .spam),
            ("\\Archive", .archive), ("\\All", .allMail), ("\\Flagged", .starred), ("\\Inbox", .inbox),
            ("\\Spam", .spam), ("\\Starred", .starred), ("\\AllMail", .allMail), ("\\sent", .sent),
        ])
    func attributes(attribute: String, type: FolderType) {
        #expect(Self.folder("Whatever", [attribute, "\\HasNoChildren"]).folderType == type)
    }

    @Test(
        "AC-F-05: well-known names give the folder type when no attribute does (Gmail, Outlook, others)",
        arguments: [
            ("[Gmail]/Sent Mail", FolderType.sent), ("[Gmail]/Drafts", .drafts), ("[Gmail]/Trash", .trash),
            ("[Gmail]/Bin", .trash), ("[Gmail]/Spam", .spam), ("[Gmail]/All Mail", .allMail),
            ("[Gmail]/Starred", .starred), ("[Google Mail]/Sent Mail", .sent), ("[Gmail]/Important", .custom),
            ("Sent Items", .sent), ("Deleted Items", .trash), ("Junk E-mail", .spam), ("Junk Email", .spam),
            ("Sent Messages", .sent), ("Deleted Messages", .trash), ("Bulk Mail", .spam), ("Archives", .archive),
            ("INBOX/Sent", .sent), ("inbox", .inbox), ("Projects/Sent", .custom), ("Receipts", .custom),
        ])
    func names(path: String, type: FolderType) {
        #expect(Self.folder(path).folderType == type)
    }

    @Test("Issue 33: a mailbox named Snoozed (or VaultMail Snoozed) is the Snoozed folder, unless the server manages it (\\Snoozed)")
    func snoozed() {
        #expect(Self.folder("Snoozed").folderType == .snoozed)
        #expect(Self.folder("INBOX.Snoozed", delimiter: ".").folderType == .snoozed)
        #expect(Self.folder("Projects/Snoozed").folderType == .custom)
        #expect(Self.folder("Snoozed", ["\\Snoozed"]).folderType == .custom)
        let types = FolderTypeMapping.folderTypes(for: [Self.folder("INBOX"), Self.folder("Snoozed", ["\\Snoozed"]), Self.folder("VaultMail Snoozed")])
        #expect(types["Snoozed"] == .custom)
        #expect(types["VaultMail Snoozed"] == .snoozed)
    }

    @Test("AC-F-05: a dot-separated hierarchy (Courier) is understood")
    func dotDelimiter() {
        #expect(Self.folder("INBOX.Sent", delimiter: ".").folderType == .sent)
        #expect(Self.folder("INBOX.Lists.Trash", delimiter: ".").folderType == .custom)
    }

    @Test("AC-F-05: over a whole list, attributes win over names and each role goes to one folder")
    func wholeList() {
        let folders = [
            Self.folder("INBOX"),
            Self.folder("Sent"),  // a leftover named Sent…
            Self.folder("Sent Items", ["\\Sent"]),  // …while the server says this one is \Sent
            Self.folder("Trash"),
            Self.folder("Deleted Items"),  // a second name for the same role
            Self.folder("[Gmail]", ["\\Noselect", "\\HasChildren"]),
            Self.folder("[Gmail]/All Mail", ["\\All"]),
            Self.folder("Work"),
        ]
        let types = FolderTypeMapping.folderTypes(for: folders)
        #expect(types["INBOX"] == .inbox)
        #expect(types["Sent Items"] == .sent)
        #expect(types["Sent"] == .custom)
        #expect(types["Trash"] == .trash)
        #expect(types["Deleted Items"] == .custom)
        #expect(types["[Gmail]"] == .custom)
        #expect(types["[Gmail]/All Mail"] == .allMail)
        #expect(types["Work"] == .custom)
        #expect(!folders[5].isSelectable)
        #expect(folders[6].name == "All Mail")
        #expect(folders[0].name == "Inbox")
    }
}
