import Hummingbird
import NIOCore

/// Hummingbird's per-request context, plus the signed-in session the guard found.
struct WebRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Set by `RequestGuard` for every request that passed sign-in.
    var session: WebSession?
    /// The form fields of a POST, read once by the guard (which needs the CSRF field).
    var form = FormFields()
    /// The connection, to ask the kernel who is at its other end (once per connection).
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// Forms (a long message with its quote); files are read by the attach route with its own limit.
    var maxUploadSize: Int { 8 << 20 }
}
