/// Writing OpenPGP mail (issue 32), once for every face: whether a message is encrypted or
/// signed (`plan`), and its PGP/MIME bytes (`build`, RFC 3156) through the account's
/// `OpenPGPEngine`. `ComposeEmailService` calls it when a message is queued, so the tool, the
/// web composer and a reply from a notification all send the same.
///
/// The rule:
/// - Automatic (`CryptoChoice.automatic`): encrypted when Autocrypt's recommendation
///   (`AutocryptRecommendation`, Level 1 §2.4) is *encrypt* for every recipient (To, Cc, Bcc) —
///   a key given to the account (`key import`) counts as *encrypt*, a key learnt from their
///   mail (`AutocryptPeerState`) gives its own: *encrypt* when they prefer `mutual` and their
///   key is fresh, *available*, *discourage* (over 35 days without their header, or only
///   gossiped) — or when the message answers mail that came encrypted: then a missing key
///   stops the send rather than send the answer in clear. *Available* and *discourage* leave
///   it plain unless the person chooses to encrypt; the plan's summary says it could be.
/// - Asked to encrypt: encrypted, or not sent (`ComposeError.cannotEncrypt` naming who has no key).
/// - Asked not to encrypt: plain, signed when asked.
/// - Encrypted mail is signed and encrypted in one OpenPGP message (RFC 3156 §6.2) to the
///   recipients and to the sender's own key, so the copy in Sent stays readable; its headers
///   are inside as Protected Headers and the outer Subject is "...".
/// - Every message carries the account's `Autocrypt:` header (Autocrypt Level 1, its key made
///   on first need, `prefer-encrypt=mutual`); encrypted mail to several people carries each
///   recipient's key inside as `Autocrypt-Gossip:`.
public struct OpenPGPWriting: Sendable {
    private let engine: any OpenPGPEngine
    private let emails: any EmailRepository
    private let peers: any AutocryptPeerRepository

    /// - Parameters:
    ///   - emails: where the conversation's messages are read, to see whether an answer
    ///     replies to encrypted mail.
    ///   - peers: the Autocrypt peer states learnt from received mail: their keys and the
    ///     recommendation they give.
    public init(engine: any OpenPGPEngine, emails: any EmailRepository, peers: any AutocryptPeerRepository) {
        self.engine = engine
        self.emails = emails
        self.peers = peers
    }

    /// What sending a message from `accountId` to `recipients` (addresses, bare or as typed
    /// with a name) will do, with `choice`.
    /// `threadId` and `inReplyTo` (the Message-ID answered) say whether it answers encrypted mail.
    public func plan(accountId: String, recipients: [String], threadId: String?, inReplyTo: String?,
                     choice: CryptoChoice) async -> CryptoPlan {
        await planAndKeys(accountId: accountId, recipients: recipients, threadId: threadId, inReplyTo: inReplyTo, choice: choice).plan
    }

    /// The bytes to send for `message`: encrypted and signed, signed, or plain, as `plan` says.
    /// Throws `ComposeError.cannotEncrypt` when it cannot be encrypted as it must be, and
    /// `OpenPGPError` when the engine fails (the key's passphrase is locked in the keyring).
    public func build(_ message: OutgoingMessage, account: Account, threadId: String?, choice: CryptoChoice,
                      builder: any MessageBuilder) async throws -> [UInt8] {
        let recipients = message.envelopeRecipients
        let (plan, keys) = await planAndKeys(accountId: account.id, recipients: recipients, threadId: threadId,
                                             inReplyTo: message.inReplyTo, choice: choice)
        if let problem = plan.problem { throw problem }
        if let unavailable = plan.unavailable, plan.sign || choice.encrypt == true {
            throw OpenPGPError.engineUnavailable(unavailable)
        }
        var message = message
        message.autocrypt = await autocryptHeader(account, address: message.from.email)
        let named = (message.to + message.cc).map(\.email)
        if plan.encrypt, named.count > 1 {
            // Gossip (Autocrypt Level 1): each recipient learns the others' keys, to answer all
            // encrypted. Bcc recipients are named nowhere, so their keys are not gossiped.
            for recipient in named {
                guard let key = keys[recipient.lowercased()],
                      let data = try? await engine.keyData(fingerprint: key.fingerprint, accountId: account.id) else { continue }
                message.gossip.append(AutocryptHeader(address: recipient, preferMutual: false, keyData: data))
            }
        }
        if plan.encrypt {
            let entity = try builder.protectedEntity(message)
            let fingerprints = recipients.compactMap { keys[$0.lowercased()]?.fingerprint }
            let ciphertext = try await engine.encryptAndSign(entity, to: fingerprints, account: account)
            return try builder.encryptedMessage(message, ciphertext: ciphertext)
        }
        if plan.sign {
            let entity = try builder.signedEntity(message)
            let signature = try await engine.detachedSignature(entity, account: account)
            return try builder.signedMessage(message, entity: entity, signature: signature)
        }
        return try builder.build(message)
    }

    /// The account's `Autocrypt:` header (its key made on first need, `prefer-encrypt=mutual`),
    /// or nil when the key cannot be had now (no GnuPG, a locked keyring): the message still goes.
    private func autocryptHeader(_ account: Account, address: String) async -> AutocryptHeader? {
        guard let key = try? await engine.accountKey(for: account),
              let data = try? await engine.keyData(fingerprint: key.fingerprint, accountId: account.id) else { return nil }
        return AutocryptHeader(address: address, preferMutual: true, keyData: data)
    }

    private func planAndKeys(accountId: String, recipients: [String], threadId: String?, inReplyTo: String?,
                             choice: CryptoChoice) async -> (plan: CryptoPlan, keys: [String: OpenPGPKeyInfo]) {
        var seen = Set<String>()
        // As typed ("Alice <alice@example.org>") or bare: the address, in lower case, once.
        let addresses = recipients.map { ((try? EmailAddress.parse($0, field: "To").email) ?? $0).lowercased() }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
        let answersEncrypted = await answersEncryptedMail(threadId: threadId, inReplyTo: inReplyTo)
        var keys: [String: OpenPGPKeyInfo] = [:]
        var each: [String: AutocryptRecommendation] = [:]
        var unavailable: String?
        do {
            let keyring = addresses.isEmpty ? [:] : try await engine.encryptionKeys(for: addresses, accountId: accountId)
            let states = (try? await peers.peers(accountId: accountId, addresses: addresses)) ?? [:]
            for address in addresses {
                let state = states[address]
                // A key learnt from Autocrypt goes into the keyring to be encrypted to; one that
                // cannot be read there is no key.
                var learnt: OpenPGPKeyInfo?
                if let data = state?.targetKey { learnt = (try? await engine.importPublicKeys(data, accountId: accountId))?.first }
                if let given = keyring[address], given.fingerprint != learnt?.fingerprint {
                    // A key given to the account (`key import`): the person chose it.
                    keys[address] = given
                    each[address] = .encrypt
                } else if let learnt {
                    keys[address] = learnt
                    each[address] = AutocryptRecommendation.of(state, repliesToEncrypted: answersEncrypted)
                } else {
                    each[address] = .disable
                }
            }
        } catch {
            keys = [:]
            each = [:]
            unavailable = error.plainWords
        }
        let missing = addresses.filter { keys[$0] == nil }
        let recommendation = unavailable == nil ? AutocryptRecommendation.combined(addresses.map { each[$0] ?? .disable }) : .disable
        let recommended = recommendation == .encrypt || answersEncrypted
        let wanted = choice.encrypt ?? recommended
        let problem: ComposeError? = wanted && !missing.isEmpty && unavailable == nil ? .cannotEncrypt(missingKeys: missing) : nil
        let encrypt = wanted && missing.isEmpty && unavailable == nil && !addresses.isEmpty
        let plan = CryptoPlan(encrypt: encrypt, sign: encrypt || choice.sign, recommended: recommended, answersEncrypted: answersEncrypted,
                              missingKeys: missing, problem: problem, unavailable: unavailable, recommendation: recommendation,
                              doubtfulKeys: addresses.filter { each[$0] == .discourage })
        return (plan, keys)
    }

    /// Whether the message `inReplyTo` of the conversation came encrypted: PGP/MIME (its
    /// `application/pgp-encrypted` part is stored) or an inline PGP message.
    private func answersEncryptedMail(threadId: String?, inReplyTo: String?) async -> Bool {
        guard let threadId, let inReplyTo = inReplyTo.flatMap(MessageIDs.parseFirst) else { return false }
        let wanted = MessageIDs.bare(inReplyTo)
        guard let conversation = try? await emails.getEmails(threadId: threadId),
              let original = conversation.first(where: { MessageIDs.bare($0.messageId) == wanted }) else { return false }
        if original.bodyPlain?.contains(InlineOpenPGP.messageBegin) == true { return true }
        guard original.hasAttachments, let parts = try? await emails.getAttachments(emailId: original.id) else { return false }
        return parts.contains { $0.mimeType.lowercased() == "application/pgp-encrypted" }
    }
}
