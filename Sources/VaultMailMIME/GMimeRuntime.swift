internal import CGMime

/// GMime's one-time setup.
enum GMimeRuntime {
    /// Runs `g_mime_init` exactly once, the first time it is read: Swift initialises a static
    /// `let` once, thread-safely. `g_mime_init` also registers every GObject type GMime uses,
    /// so no type is registered lazily (and racily) later from two threads at once.
    static let ready: Bool = {
        g_mime_init()
        return true
    }()
}
