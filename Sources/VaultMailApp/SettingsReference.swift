import VaultMailCore

/// Lets sending read the undo-send delay from the `SettingsStore` that `AppDependencies`
/// builds after sending itself (the graph needs sending first).
@MainActor
final class SettingsReference {
    var settings: SettingsStore?

    func undoSendDelaySeconds() -> Int {
        settings?.undoSendDelaySeconds ?? AppConstants.defaultUndoSendDelaySeconds
    }
}
