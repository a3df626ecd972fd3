import VaultMailCore

extension WebMail {
    /// Whether the remote images of `email` may load: never under `.never`; else when the
    /// user asked for this message or trusts the sender, and under `.knownSenders` also for
    /// people the user has written to.
    func remoteImagesAllowed(_ email: Email, asked: Bool) async -> Bool {
        let (policy, trusted) = await MainActor.run { (settings.remoteImages, settings.allowsImages(from: email.fromAddress)) }
        switch policy {
        case .never: return false
        case .ask: return asked || trusted
        case .knownSenders:
            if asked || trusted { return true }
            return await contacts.wroteTo(email.fromAddress)
        }
    }
}
