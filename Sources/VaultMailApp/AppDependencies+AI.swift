import Foundation
import VaultMailAI
import VaultMailCore

extension AppDependencies {
    /// The models folder: `$VAULTMAIL_MODELS_DIR` when set (tests, `make install`), else
    /// `<VaultMail home>/models`.
    public nonisolated static func modelsDirectory(
        home: VaultMailHome, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> URL {
        if let override = environment["VAULTMAIL_MODELS_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        return home.directory.appendingPathComponent("models", isDirectory: true)
    }

    /// The model manager over the models folder of `home` (AC-A-03): Core's `AIModelLibrary`
    /// for the features, downloads and removals for the command line and the web app.
    public nonisolated static func modelManager(
        home: VaultMailHome, catalog: AIModelCatalog = .standard,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> AIModelManager {
        AIModelManager(directory: modelsDirectory(home: home, environment: environment), catalog: catalog)
    }
}

extension AppDependencies {
    /// What the web app's model pages work through (Core's `AIModelAdministration`): the model
    /// manager of `home`, downloading from `$VAULTMAIL_MODELS_MIRROR` when it is set (a mirror
    /// of `<mirror>/<id>/<file name>`, as `vaultmail ai download --mirror`). `onInstalled` and
    /// `onRemoved` are told a model's id when it becomes usable or goes (to start indexing, to
    /// unload an engine holding it).
    public nonisolated static func modelAdministration(
        home: VaultMailHome, catalog: AIModelCatalog = .standard,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        onInstalled: @escaping @Sendable (String) async -> Void = { _ in },
        onRemoved: @escaping @Sendable (String) async -> Void = { _ in }
    ) -> AIModelAdministrator {
        let mirror = environment["VAULTMAIL_MODELS_MIRROR"].flatMap { $0.isEmpty ? nil : URL(string: $0) }
        return AIModelAdministrator(manager: modelManager(home: home, catalog: catalog, environment: environment), mirror: mirror,
                                    onInstalled: onInstalled, onRemoved: onRemoved)
    }
}
