import Testing

/// Every test that starts a Dovecot runs in this suite, one at a time, so timing-sensitive
/// ones (IDLE within 2 s) never compete with a dozen servers starting on a 2-core machine.
@Suite("Against a real Dovecot", .serialized)
struct DovecotTests {}
