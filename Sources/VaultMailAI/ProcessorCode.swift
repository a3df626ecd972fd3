import Foundation
import VaultMailCore

/// The processor-specific code each on-device model runs here, as chosen at run time (issue 27):
/// llama.cpp's CPU variant for the writing model, OpenBLAS's kernels for the sentence model.
public enum ProcessorCode {
    /// One line per engine, for `vaultmail ai status`. OpenBLAS is opened only when the sentence
    /// model is installed: a process that loads no model never maps it.
    public static func report(sentenceModelInstalled: Bool) -> [String] {
        let writing: String
        switch Result(catching: { try LlamaCPUBackend.load() }) {
        case .success(let backend):
            let features = backend.features.isEmpty ? "" : " (\(backend.features.joined(separator: " ")))"
            let runnable = backend.variants.filter(\.mayRun).count
            writing = "\(backend.chosen.name)\(features), the best of \(runnable) of \(backend.variants.count) variants that run here"
        case .failure(let error):
            writing = "none: \(error)"
        }
        let sentences: String
        switch sentenceModelInstalled ? Result(catching: { try BLASLibrary.load() }) : nil {
        case nil: sentences = "not installed (OpenBLAS chooses its kernels when the model is first loaded)"
        case .success(let blas): sentences = "OpenBLAS \(blas.coreName ?? "(kernels not named)") kernels"
        case .failure(let error): sentences = "none: \(error)"
        }
        return ["writing model: llama.cpp \(writing)", "sentence model: \(sentences)"]
    }
}
