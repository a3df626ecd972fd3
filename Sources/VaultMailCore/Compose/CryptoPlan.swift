/// What will happen to a message's OpenPGP protection when it is sent (issue 32), worked out
/// by `OpenPGPWriting.plan` from the recipients' keys, the conversation and the person's
/// `CryptoChoice`: what the composer's lock shows, and what sending does.
public struct CryptoPlan: Sendable, Equatable {
    /// Encrypted (and signed) to every recipient and to the sender.
    public var encrypt: Bool
    /// Signed with the account's key.
    public var sign: Bool
    /// Whether encrypting is the default: Autocrypt recommends *encrypt* for every recipient
    /// (`recommendation`), or the message answers encrypted mail.
    public var recommended: Bool
    /// It answers a message that came encrypted: it is encrypted unless the person turns that off.
    public var answersEncrypted: Bool
    /// The recipients the account has no key for (lower case), in the order given.
    public var missingKeys: [String]
    /// Why it cannot go as chosen: encryption was asked for (or it answers encrypted mail) and
    /// some recipients have no key. Sending throws it.
    public var problem: ComposeError?
    /// OpenPGP could not be used at all (GnuPG missing); the message goes as plain mail
    /// unless encryption or a signature was asked for.
    public var unavailable: String?
    /// Autocrypt's recommendation for the message as a whole (Level 1 §2.4.3).
    public var recommendation: AutocryptRecommendation
    /// Recipients whose key is doubtful (recommendation *discourage*: not confirmed by their own
    /// mail for over 35 days, or only passed on by others), in the order given.
    public var doubtfulKeys: [String]

    public init(encrypt: Bool, sign: Bool, recommended: Bool, answersEncrypted: Bool, missingKeys: [String],
                problem: ComposeError? = nil, unavailable: String? = nil,
                recommendation: AutocryptRecommendation = .disable, doubtfulKeys: [String] = []) {
        self.recommendation = recommendation
        self.doubtfulKeys = doubtfulKeys
        self.encrypt = encrypt
        self.sign = sign
        self.recommended = recommended
        self.answersEncrypted = answersEncrypted
        self.missingKeys = missingKeys
        self.problem = problem
        self.unavailable = unavailable
    }

    /// What will happen, in one line of a person's words (the composer's lock).
    public var summary: String {
        if problem != nil {
            return "Can't be encrypted: no key for \(missingKeys.joined(separator: ", ")). Add their key, remove them, or turn encryption off."
        }
        if encrypt { return "Encrypted and signed: only the recipients and you can read it." }
        if let unavailable { return "Not encrypted: \(unavailable)" }
        let signed = sign ? "Signed, not encrypted" : "Not encrypted"
        if !missingKeys.isEmpty { return "\(signed): no key for \(missingKeys.joined(separator: ", "))." }
        if recommended { return "\(signed): encryption turned off; anyone on the way can read it." }
        if recommendation == .discourage {
            return "\(signed): encryption is possible, but the key of \(doubtfulKeys.joined(separator: ", ")) may be out of date"
                + " (not confirmed by their own mail lately, or only passed on by others). Choose Encrypt to use it anyway."
        }
        if recommendation == .available { return "\(signed): encryption is possible (every recipient has a key). Choose Encrypt to turn it on." }
        return "\(signed)."
    }

    /// What the tool says after sending: "Encrypted and signed.", "Signed, not encrypted.", or,
    /// for plain mail that could have been encrypted, the summary; nil for plain mail otherwise.
    public var sentNote: String? {
        if encrypt { return "Encrypted and signed." }
        if recommendation >= .discourage && !recommended { return summary }
        if sign { return "Signed, not encrypted." }
        return nil
    }
}
