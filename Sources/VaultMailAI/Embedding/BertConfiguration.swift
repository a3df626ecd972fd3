import Foundation
import VaultMailCore

/// The shape of a BERT encoder, read from a Hugging Face `config.json`.
struct BertConfiguration: Sendable, Equatable, Decodable {
    var hiddenSize: Int
    var layerCount: Int
    var headCount: Int
    var intermediateSize: Int
    var layerNormEpsilon: Float
    var maxPositions: Int
    var vocabularySize: Int
    var tokenTypeCount: Int
    var activation: String

    var headSize: Int { hiddenSize / headCount }

    private enum CodingKeys: String, CodingKey {
        case hiddenSize = "hidden_size"
        case layerCount = "num_hidden_layers"
        case headCount = "num_attention_heads"
        case intermediateSize = "intermediate_size"
        case layerNormEpsilon = "layer_norm_eps"
        case maxPositions = "max_position_embeddings"
        case vocabularySize = "vocab_size"
        case tokenTypeCount = "type_vocab_size"
        case activation = "hidden_act"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        hiddenSize = try container.decode(Int.self, forKey: .hiddenSize)
        layerCount = try container.decode(Int.self, forKey: .layerCount)
        headCount = try container.decode(Int.self, forKey: .headCount)
        intermediateSize = try container.decode(Int.self, forKey: .intermediateSize)
        layerNormEpsilon = try container.decodeIfPresent(Float.self, forKey: .layerNormEpsilon) ?? 1e-12
        maxPositions = try container.decode(Int.self, forKey: .maxPositions)
        vocabularySize = try container.decode(Int.self, forKey: .vocabularySize)
        tokenTypeCount = try container.decodeIfPresent(Int.self, forKey: .tokenTypeCount) ?? 2
        activation = try container.decodeIfPresent(String.self, forKey: .activation) ?? "gelu"
    }

    /// Reads and checks `config.json`; throws `AIError.modelUnreadable` naming what is wrong.
    init(contentsOf url: URL) throws {
        func unreadable(_ reason: String) -> AIError { .modelUnreadable(path: url.path, reason: reason) }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw unreadable("cannot read it (\(error.localizedDescription))")
        }
        do { self = try JSONDecoder().decode(Self.self, from: data) } catch {
            throw unreadable("it is not a BERT config.json (\(error))")
        }
        let sizes = [hiddenSize, layerCount, headCount, intermediateSize, maxPositions, vocabularySize, tokenTypeCount]
        guard sizes.allSatisfy({ $0 > 0 }), hiddenSize % headCount == 0 else {
            throw unreadable("its sizes are not those of a BERT encoder (hidden_size \(hiddenSize), num_attention_heads \(headCount))")
        }
        guard activation == "gelu" else {
            throw unreadable("hidden_act is \(activation); only gelu is supported")
        }
        guard layerNormEpsilon > 0, layerNormEpsilon.isFinite else { throw unreadable("layer_norm_eps is \(layerNormEpsilon)") }
    }
}
