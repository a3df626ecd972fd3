/// libopenblas could not be opened, or lacks a function the engine calls.
struct BLASLibraryError: Error, CustomStringConvertible {
    let reason: String

    var description: String {
        "cannot load \(BLASLibrary.soname), which the on-device AI model runs on: \(reason). "
            + "Install libopenblas0 (scripts/install-deps.sh)."
    }
}
