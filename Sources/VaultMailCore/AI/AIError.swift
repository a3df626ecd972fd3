import Foundation

/// What the AI layer says when it cannot do something: each case names what failed and what
/// to do. Features without a model say `modelNotInstalled`'s words instead of failing.
public enum AIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No model for this feature is installed.
    case modelNotInstalled(modelId: String, feature: String)
    /// The engine was asked to run before a model was loaded.
    case modelNotLoaded
    /// The model's files are there but could not be read.
    case modelUnreadable(path: String, reason: String)
    /// The id is not in the catalog.
    case unknownModel(String)
    /// A download or install did not finish.
    case downloadFailed(modelId: String, reason: String)
    /// A downloaded or given file is not the published one.
    case checksumMismatch(file: String, expected: String, actual: String)
    /// The download was cancelled; what arrived is kept for a resume.
    case cancelled(modelId: String)
    /// A prompt longer than the model's context (in tokens).
    case promptTooLong(tokens: Int, limit: Int)
    /// The engine failed while generating.
    case generationFailed(reason: String)
    /// None of llama.cpp's CPU code can run here, or the variant asked for cannot.
    case noProcessorCode(reason: String)
    /// An installed model whose files were cut short or changed since (E-04).
    case modelDamaged(modelId: String, reason: String)

    public var description: String {
        switch self {
        case .modelNotInstalled(let modelId, let feature):
            return "Download a model to enable \(feature): run `vaultmail ai download \(modelId)` or open Settings → On-device AI."
        case .modelNotLoaded:
            return "the AI model is not loaded: load it before running it"
        case .modelUnreadable(let path, let reason):
            return "cannot read the AI model in \(path): \(reason). Remove it and download it again (`vaultmail ai remove`, then `vaultmail ai download`)."
        case .unknownModel(let id):
            return "there is no AI model '\(id)': `vaultmail ai models` lists the ones there are"
        case .downloadFailed(let modelId, let reason):
            return "the download of \(modelId) did not finish: \(reason). Run the download again to resume it, or install the files with `vaultmail ai install \(modelId) FILE…`."
        case .checksumMismatch(let file, let expected, let actual):
            return "\(file) is not the published file (SHA-256 \(actual), expected \(expected)); it was not installed. Download it again."
        case .cancelled(let modelId):
            return "the download of \(modelId) was cancelled; run it again to resume where it stopped"
        case .promptTooLong(let tokens, let limit):
            return "the text is too long for the writing model (\(tokens) tokens, at most \(limit)): shorten it"
        case .generationFailed(let reason):
            return "the writing model failed: \(reason). Try again; if it keeps failing, remove the model and download it again."
        case .noProcessorCode(let reason):
            return "the writing model cannot run on this processor: \(reason)"
        case .modelDamaged(let modelId, let reason):
            return "the AI model \(modelId) is damaged (\(reason)), so it was not loaded. Install it again: "
                + "run `vaultmail ai download \(modelId)` (or `vaultmail ai install \(modelId) FILE…`), or Download it in Settings → On-device AI."
        }
    }
}
