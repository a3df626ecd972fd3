import Hummingbird

/// Hummingbird's per-request context, plus the signed-in session the guard found.
struct WebRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Set by `RequestGuard` for every request that passed sign-in.
    var session: WebSession?
    /// The form fields of a POST, read once by the guard (which needs the CSRF field).
    var form = FormFields()
    /// The client's port on 127.0.0.1, to ask the kernel who it is.
    let peerPort: Int?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerPort = source.channel.remoteAddress?.port
    }

    /// Mail uploads are part 2's business; reading needs small forms only.
    var maxUploadSize: Int { 1 << 20 }
}
