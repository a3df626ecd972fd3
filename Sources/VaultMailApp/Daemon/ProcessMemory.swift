internal import CMalloc

/// The daemon's heap, kept small for a process that runs for days (issue 18). glibc gives
/// each thread that allocates at once a heap of its own (an arena), up to eight per core, and
/// keeps what was freed in each: the daemon's many threads (IMAP connections, the web server,
/// the cooperative pool) left most of its resident memory in half-empty arenas.
enum ProcessMemory {
    /// At most two arenas from now on (before the daemon starts its threads).
    static func limitArenas() {
        _ = vm_malloc_limit_arenas(2)
    }

    /// Gives the heap's free pages back to the system: after a sync that brought mail, whose
    /// parsing and storing allocated far more than the daemon keeps.
    static func returnFreeMemory() {
        _ = vm_malloc_trim()
    }
}
