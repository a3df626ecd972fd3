internal import COpenBLAS
import Foundation

/// OpenBLAS, opened the first time a model is loaded rather than linked: a process that never
/// loads a model (`vaultmail --version`, most commands, a daemon without a model) never maps
/// the library nor starts its thread pool. Opened once per process, never closed.
///
/// OpenBLAS runs single-threaded: `OPENBLAS_NUM_THREADS=1` is set (unless the user set it)
/// before the library's constructor reads it, and `openblas_set_num_threads(1)` after. The
/// engine's own workers (`InferenceWorkers`) are the parallelism.
struct BLASLibrary: Sendable {
    /// The shared object opened: Debian's libopenblas0 (pthread flavour, via alternatives).
    static let soname = "libopenblas.so.0"

    /// `cblas_sgemm`, called as the C function is.
    let sgemm: vaultmail_cblas_sgemm_fn
    /// The processor family whose kernels OpenBLAS chose at run time (Debian builds it with
    /// DYNAMIC_ARCH): `Haswell`, `SkylakeX`, `Nehalem`, … (`openblas_get_corename`).
    let coreName: String?

    /// The process's library, opened on first use (Swift runs a static's initializer once,
    /// thread-safely); the failure, if any, is kept and thrown to every caller.
    private static let shared: Result<BLASLibrary, BLASLibraryError> = Result { try BLASLibrary.open() }
        .mapError { $0 as? BLASLibraryError ?? BLASLibraryError(reason: "\($0)") }

    /// The opened library; throws `BLASLibraryError` naming libopenblas if it is missing.
    static func load() throws -> BLASLibrary {
        try shared.get()
    }

    private static func open() throws -> BLASLibrary {
        // Read by OpenBLAS's constructor when the library is opened; 0: a user's setting wins.
        setenv("OPENBLAS_NUM_THREADS", "1", 0)
        // The handle is never closed: the function pointers below live as long as the process.
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            throw BLASLibraryError(reason: Self.lastError())
        }
        let sgemm = try symbol("cblas_sgemm", in: handle, as: vaultmail_cblas_sgemm_fn.self)
        let setThreads = try symbol("openblas_set_num_threads", in: handle, as: vaultmail_openblas_set_num_threads_fn.self)
        // Process-wide; only this module uses OpenBLAS. Two workers × one BLAS thread each.
        setThreads(1)
        let coreName = (try? symbol("openblas_get_corename", in: handle, as: (@convention(c) () -> UnsafeMutablePointer<CChar>?).self))
            .flatMap { $0() }.map { String(cString: $0) }
        return BLASLibrary(sgemm: sgemm, coreName: coreName)
    }

    private static func symbol<Function>(_ name: String, in handle: UnsafeMutableRawPointer, as type: Function.Type) throws -> Function {
        guard let address = dlsym(handle, name) else {
            throw BLASLibraryError(reason: "\(name) is missing from it (\(Self.lastError()))")
        }
        return unsafeBitCast(address, to: type)
    }

    private static func lastError() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown error"
    }
}
