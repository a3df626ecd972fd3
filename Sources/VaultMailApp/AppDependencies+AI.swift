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
