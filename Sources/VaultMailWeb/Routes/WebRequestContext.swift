import Hummingbird
import NIOCore

/// Hummingbird's per-request context, plus the signed-in session the guard found.
struct WebRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// Set by `RequestGuard` for every request that passed sign-in.
    var session: WebSession?
    /// The body of a posted form, read once by the guard (which needs its CSRF field); a route
    /// decodes it into its own struct with `form(_:)`.
    var formBody = ""
    /// The connection, to ask the kernel who is at its other end (once per connection).
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The posted form decoded into `Form` (`FormError` when it cannot be read).
    func form<Form: Decodable>(_ type: Form.Type) throws(FormError) -> Form {
        try WebForm.decode(Form.self, from: formBody)
    }

    /// Forms (a long message with its quote); files are read by the attach route with its own limit.
    var maxUploadSize: Int { 8 << 20 }
}
