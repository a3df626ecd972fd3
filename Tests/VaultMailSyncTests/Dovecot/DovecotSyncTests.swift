import Testing

/// Every test that starts a Dovecot runs in this suite, one at a time, so the timed ones
/// (IDLE within 2 s, 10 new emails within 5 s) never compete with other servers starting.
@Suite("Sync against a real Dovecot", .serialized)
struct DovecotSyncTests {}
