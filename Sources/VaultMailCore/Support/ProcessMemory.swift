internal import CMalloc
import Foundation

/// The process's heap (glibc's allocator, through the `CMalloc` shim): the one place that
/// configures it and gives its free pages back to the system, for the daemon that runs for
/// days (issue 18), the AI engines that free a model, and the benchmarks that measure them.
///
/// glibc gives each thread that allocates at once a heap of its own (an arena), up to eight per
/// core, and keeps what was freed in each: the daemon's many threads (IMAP connections, the
/// web server, the cooperative pool) left most of its resident memory in half-empty arenas.
public enum ProcessMemory {
    /// At most two arenas from now on (call it before the process starts its threads), and
    /// fixed thresholds: blocks of 256 KiB and more get their own mapping, and a heap whose
    /// free top exceeds 1 MiB is shrunk on `free`. glibc otherwise raises both after each large
    /// block freed (a message of a few MiB: then up to 32 and 64 MiB), and `malloc_trim` never
    /// shrinks the top of an arena other than the main one: after syncing 100,000 messages the
    /// second arena kept 35 MiB resident with 4.6 MiB live in the whole heap.
    public static func configureHeap() {
        _ = vm_malloc_limit_arenas(2)
        _ = vm_malloc_fixed_thresholds(256 * 1024, 1024 * 1024)
    }

    /// Gives the heap's free pages back to the system (`malloc_trim(0)`): after a sync that
    /// brought mail, whose parsing and storing allocated far more than the daemon keeps, or
    /// after a model was unloaded.
    public static func returnFreeMemory() {
        _ = vm_malloc_trim()
    }

    /// The heap after `returnFreeMemory`, for the log: "heap: 12.1 MiB in use of 20.6 MiB held".
    /// Much more held than used is fragmentation (live blocks scattered over pages), not a leak.
    public static func heapSummary() -> String {
        var held = 0
        var used = 0
        vm_malloc_usage(&held, &used)
        func mib(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
        return "heap: \(mib(used)) MiB in use of \(mib(held)) MiB held"
    }
}
