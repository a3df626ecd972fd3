/// Reading OpenPGP mail (issue 32), written once for every face: when a message is opened, its
/// PGP/MIME (RFC 3156) or inline PGP content is decrypted and its signature checked through the
/// account's `OpenPGPEngine`, and the message is shown with the decrypted text and the real
/// subject of its Protected Headers.
///
/// Decrypted text lives only in the opened `Conversation` (memory): the store keeps the message
/// as it came, encrypted, and is never given the clear text (docs/crypto.md, "Where the
/// decrypted text lives"). A message whose integrity check fails shows no text at all, and one
/// whose signature does not match is shown with that said; both stay in the store as they came.
public struct OpenPGPReading: Sendable {
    private let engine: any OpenPGPEngine
    private let sources: any MessageSourceRepository
    private let parser: any MessageParser
    private let structure: any OpenPGPStructureReader
    private let peers: (any AutocryptPeerRepository)?

    /// - Parameter peers: where the `Autocrypt-Gossip:` headers found inside decrypted mail are
    ///   kept (Autocrypt Level 1 key gossip); nil to leave them unread.
    public init(engine: any OpenPGPEngine, sources: any MessageSourceRepository, parser: any MessageParser,
                structure: any OpenPGPStructureReader, peers: (any AutocryptPeerRepository)? = nil) {
        self.peers = peers
        self.engine = engine
        self.sources = sources
        self.parser = parser
        self.structure = structure
    }

    /// `email` as it is to be shown, and its OpenPGP state; nil when it is not an OpenPGP
    /// message (nothing is read for a message with no attachment and no armored text).
    public func read(_ email: Email) async -> (email: Email, crypto: OpenedCrypto)? {
        guard email.hasAttachments || InlineOpenPGP.mayContain(email.bodyPlain) else { return nil }
        let raw = (try? await sources.rawSource(emailId: email.id)) ?? nil
        if let raw, let payload = structure.openPGPPayload(in: raw) {
            return await readMIME(payload, of: email)
        }
        if let text = email.bodyPlain, let inline = InlineOpenPGP.find(in: text) {
            return await readInline(inline, of: email)
        }
        return nil
    }

    /// Keeps the keys gossiped inside a decrypted message (Level 1 §2.3, key gossip): only
    /// those for the message's To and Cc recipients, dated by the message's effective date.
    private func learnGossip(_ inner: ParsedMessage, of email: Email) async {
        guard let peers, !inner.autocryptGossipHeaders.isEmpty else { return }
        let recipients = Set((email.toAddresses + email.ccAddresses).map { $0.email.lowercased() })
        let gossip = inner.autocryptGossipHeaders.compactMap(AutocryptHeader.parse)
            .filter { recipients.contains($0.address.lowercased()) }
        let effective = AutocryptReceipt(from: email.fromAddress, date: email.dateSent, arrived: email.dateReceived, headers: []).effectiveDate
        try? await peers.receiveGossip(gossip, effectiveDate: effective, accountId: email.accountId)
    }

    /// Reads the sender's `Autocrypt:` header found among the decrypted entity's headers
    /// (Delta Chat sends it there, not in clear) as one in clear is read when mail is synced
    /// (Level 1 §2.3): same effective date, same rules (`AutocryptPeerState.receiving`: an
    /// older message changes nothing, `addr` must be the sender's, two headers count as none).
    /// A message whose decrypted part carries no header changes nothing here: its clear
    /// headers were read when it was synced.
    private func learnProtectedAutocrypt(_ inner: ParsedMessage, of email: Email) async {
        guard let peers, !inner.autocryptHeaders.isEmpty else { return }
        let receipt = AutocryptReceipt(from: email.fromAddress, date: email.dateSent, arrived: email.dateReceived,
                                       headers: inner.autocryptHeaders)
        try? await peers.receive(receipt, accountId: email.accountId)
    }

    // MARK: PGP/MIME

    private func readMIME(_ payload: OpenPGPPayload, of email: Email) async -> (email: Email, crypto: OpenedCrypto) {
        switch payload {
        case .encrypted(let ciphertext):
            // The control part ("Version: 1") and the ciphertext are parts 1 and 2.
            let structural: Set<String> = ["1", "2"]
            switch await engine.decrypt(ciphertext, accountId: email.accountId) {
            case .failed(let state):
                return (Self.withoutText(email), OpenedCrypto(state: MessageCrypto(encryption: state, signature: .notSigned),
                                                              structuralPartIds: structural))
            case .decrypted(let plaintext, var signature):
                var entity = plaintext
                // Signed, then encrypted (RFC 3156 §6.1): a multipart/signed inside.
                if case .signed(let content, let detached)? = structure.openPGPPayload(in: plaintext) {
                    signature = await engine.verify(content, signature: detached, accountId: email.accountId)
                    entity = content
                }
                let inner = parser.parse(plaintext)
                let content = entity == plaintext ? inner : parser.parse(entity)
                await learnGossip(inner, of: email)
                await learnProtectedAutocrypt(inner.autocryptHeaders.isEmpty ? content : inner, of: email)
                let shown = Self.showing(content, in: email, protectedSubject: true)
                return (shown, OpenedCrypto(state: MessageCrypto(encryption: .decrypted, signature: signature), structuralPartIds: structural))
            }
        case .signed(let content, let detached):
            let signature = await engine.verify(content, signature: detached, accountId: email.accountId)
            // The signature is part 2; the signed part is shown as the message.
            let shown = Self.showing(parser.parse(content), in: email, protectedSubject: false)
            return (shown, OpenedCrypto(state: MessageCrypto(encryption: .notEncrypted, signature: signature), structuralPartIds: ["2"]))
        }
    }

    // MARK: Inline PGP

    private func readInline(_ inline: InlineOpenPGP, of email: Email) async -> (email: Email, crypto: OpenedCrypto)? {
        var shown = email
        switch inline.kind {
        case .message:
            switch await engine.decrypt(Array(inline.block.utf8), accountId: email.accountId) {
            case .failed(let state):
                return (Self.withoutText(email), OpenedCrypto(state: MessageCrypto(encryption: state, signature: .notSigned)))
            case .decrypted(let plaintext, let signature):
                shown.bodyPlain = inline.replacingBlock(with: String(decoding: plaintext, as: UTF8.self))
                shown.bodyHTML = nil
                shown.snippet = Snippet.make(plain: shown.bodyPlain, html: nil)
                return (shown, OpenedCrypto(state: MessageCrypto(encryption: .decrypted, signature: signature)))
            }
        case .cleartextSigned:
            let (text, signature) = await engine.verifyCleartext(Array(inline.block.utf8), accountId: email.accountId)
            if let text {
                shown.bodyPlain = inline.replacingBlock(with: String(decoding: text, as: UTF8.self))
                shown.bodyHTML = nil
            }
            return (shown, OpenedCrypto(state: MessageCrypto(encryption: .notEncrypted, signature: signature)))
        }
    }

    // MARK: What is shown

    /// `email` with the body, preview and (for an encrypted message, RFC 9788's Protected
    /// Headers) the subject of the entity inside.
    private static func showing(_ inner: ParsedMessage, in email: Email, protectedSubject: Bool) -> Email {
        var shown = email
        shown.bodyPlain = inner.textPlain ?? inner.textHTML.map { HTMLText.plainText($0, visibleOnly: true) }
        shown.bodyHTML = inner.textHTML
        shown.snippet = inner.snippet
        if protectedSubject, !inner.subject.isEmpty { shown.subject = inner.subject }
        return shown
    }

    /// `email` with no text: what could not be decrypted is not shown, not even its armor.
    private static func withoutText(_ email: Email) -> Email {
        var shown = email
        shown.bodyPlain = nil
        shown.bodyHTML = nil
        shown.snippet = nil
        return shown
    }
}
