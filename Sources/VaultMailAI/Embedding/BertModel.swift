internal import COpenBLAS
import Foundation
import VaultMailCore

/// A BERT encoder with sentence-transformers' mean pooling, over weights mapped from a
/// `model.safetensors` (never copied): token ids in, one L2-normalised vector per sequence out.
///
/// Several sequences run as one pass with their tokens packed end to end, no padding: every
/// matrix product over tokens (Q, K, V, attention output, feed-forward) is one `sgemm` over
/// all of them; attention runs per sequence and head (two `sgemm`s each).
final class BertModel: @unchecked Sendable {  // immutable after init: its weight pointers point into `file`'s read-only mapping, which it keeps alive
    let configuration: BertConfiguration
    let tokenizer: BertTokenizer
    let directory: URL
    private let file: SafetensorsFile
    /// OpenBLAS, opened by the engine before the model.
    private let blas: BLASLibrary
    private let embeddings: EmbeddingWeights
    private let layers: [LayerWeights]

    private struct Linear {
        /// `[out, in]`, row-major, as PyTorch stores it.
        var weight: UnsafePointer<Float>
        var bias: UnsafePointer<Float>
    }

    private struct Norm {
        var weight: UnsafePointer<Float>
        var bias: UnsafePointer<Float>
    }

    private struct EmbeddingWeights {
        var words: UnsafePointer<Float>
        var positions: UnsafePointer<Float>
        var tokenTypes: UnsafePointer<Float>
        var norm: Norm
    }

    private struct LayerWeights {
        var query, key, value, attentionOutput: Linear
        var attentionNorm: Norm
        var intermediate, output: Linear
        var outputNorm: Norm
    }

    /// Loads `config.json`, `vocab.txt` and `model.safetensors` from `directory`; sequences are
    /// cut to `maxSequenceLength` tokens. Throws `AIError.modelUnreadable` naming the bad file.
    init(directory: URL, maxSequenceLength: Int, blas: BLASLibrary) throws {
        self.directory = directory
        self.blas = blas
        let configuration = try BertConfiguration(contentsOf: directory.appendingPathComponent("config.json"))
        self.configuration = configuration
        let vocabularyURL = directory.appendingPathComponent("vocab.txt")
        tokenizer = try BertTokenizer(
            vocabularyFile: vocabularyURL, maxLength: min(maxSequenceLength, configuration.maxPositions))
        guard tokenizer.vocabularySize <= configuration.vocabularySize else {
            throw AIError.modelUnreadable(
                path: vocabularyURL.path,
                reason: "it has \(tokenizer.vocabularySize) tokens but config.json's vocab_size is \(configuration.vocabularySize)")
        }
        let file = try SafetensorsFile(url: directory.appendingPathComponent("model.safetensors"))
        self.file = file

        let h = configuration.hiddenSize, i = configuration.intermediateSize
        func linear(_ name: String, out: Int, in input: Int) throws -> Linear {
            Linear(weight: try file.floats(name + ".weight", shape: [out, input]), bias: try file.floats(name + ".bias", shape: [out]))
        }
        func norm(_ name: String) throws -> Norm {
            Norm(weight: try file.floats(name + ".weight", shape: [h]), bias: try file.floats(name + ".bias", shape: [h]))
        }
        embeddings = EmbeddingWeights(
            words: try file.floats("embeddings.word_embeddings.weight", shape: [configuration.vocabularySize, h]),
            positions: try file.floats("embeddings.position_embeddings.weight", shape: [configuration.maxPositions, h]),
            tokenTypes: try file.floats("embeddings.token_type_embeddings.weight", shape: [configuration.tokenTypeCount, h]),
            norm: try norm("embeddings.LayerNorm"))
        layers = try (0..<configuration.layerCount).map { index in
            let prefix = "encoder.layer.\(index)."
            return LayerWeights(
                query: try linear(prefix + "attention.self.query", out: h, in: h),
                key: try linear(prefix + "attention.self.key", out: h, in: h),
                value: try linear(prefix + "attention.self.value", out: h, in: h),
                attentionOutput: try linear(prefix + "attention.output.dense", out: h, in: h),
                attentionNorm: try norm(prefix + "attention.output.LayerNorm"),
                intermediate: try linear(prefix + "intermediate.dense", out: i, in: h),
                output: try linear(prefix + "output.dense", out: h, in: i),
                outputNorm: try norm(prefix + "output.LayerNorm"))
        }
    }

    /// One unit vector per sequence of token ids (each `[CLS] … [SEP]`, at most
    /// `tokenizer.maxLength` long), computed in one packed pass.
    func embed(_ sequences: [[Int32]]) -> [[Float]] {
        guard !sequences.isEmpty else { return [] }
        let h = configuration.hiddenSize, inner = configuration.intermediateSize
        let heads = configuration.headCount, d = configuration.headSize
        let tokens = sequences.reduce(0) { $0 + $1.count }
        let longest = sequences.map(\.count).max() ?? 0
        let epsilon = configuration.layerNormEpsilon

        let hidden = Buffer(tokens * h), qkv = Buffer(tokens * 3 * h), context = Buffer(tokens * h)
        let scratch = Buffer(tokens * h), intermediate = Buffer(tokens * inner), scores = Buffer(longest * longest)
        defer {
            for buffer in [hidden, qkv, context, scratch, intermediate, scores] { buffer.free() }
        }

        // Embeddings: word + position + token type 0, then LayerNorm.
        var row = 0
        for sequence in sequences {
            for (position, id) in sequence.enumerated() {
                let out = hidden.pointer + row * h
                let word = embeddings.words + Int(id) * h, place = embeddings.positions + position * h
                VectorKernels.add(word, place, count: h, into: out)
                VectorKernels.accumulate(embeddings.tokenTypes, count: h, into: out)
                row += 1
            }
        }
        Self.layerNorm(hidden.pointer, rows: tokens, width: h, norm: embeddings.norm, epsilon: epsilon)

        let scale = 1 / Float(d).squareRoot()
        for layer in layers {
            // Q, K, V side by side in one [tokens, 3h] matrix.
            for (part, linear) in [layer.query, layer.key, layer.value].enumerated() {
                let out = qkv.pointer + part * h
                Self.fillRows(out, rows: tokens, width: h, stride: 3 * h, with: linear.bias)
                multiply(hidden.pointer, rows: tokens, inner: h, by: linear, outputs: h, into: out, stride: 3 * h)
            }
            // Self-attention, per sequence and head.
            var offset = 0
            for sequence in sequences {
                let length = sequence.count
                let base = qkv.pointer + offset * 3 * h
                for head in 0..<heads {
                    let q = base + head * d, k = base + h + head * d, v = base + 2 * h + head * d
                    blas.sgemm(
                        CblasRowMajor, CblasNoTrans, CblasTrans, Int32(length), Int32(length), Int32(d),
                        scale, q, Int32(3 * h), k, Int32(3 * h), 0, scores.pointer, Int32(length))
                    for r in 0..<length { VectorKernels.softmax(scores.pointer + r * length, width: length) }
                    blas.sgemm(
                        CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(length), Int32(d), Int32(length),
                        1, scores.pointer, Int32(length), v, Int32(3 * h), 0,
                        context.pointer + offset * h + head * d, Int32(h))
                }
                offset += length
            }
            // Output projection + residual, LayerNorm.
            Self.add(hidden.pointer, layer.attentionOutput.bias, rows: tokens, width: h, into: scratch.pointer)
            multiply(context.pointer, rows: tokens, inner: h, by: layer.attentionOutput, outputs: h, into: scratch.pointer, stride: h)
            Self.layerNorm(scratch.pointer, rows: tokens, width: h, norm: layer.attentionNorm, epsilon: epsilon, into: hidden.pointer)
            // Feed-forward: GELU(x W1ᵀ + b1) W2ᵀ + b2, + residual, LayerNorm.
            Self.fillRows(intermediate.pointer, rows: tokens, width: inner, stride: inner, with: layer.intermediate.bias)
            multiply(hidden.pointer, rows: tokens, inner: h, by: layer.intermediate, outputs: inner, into: intermediate.pointer, stride: inner)
            VectorKernels.gelu(intermediate.pointer, count: tokens * inner)
            Self.add(hidden.pointer, layer.output.bias, rows: tokens, width: h, into: scratch.pointer)
            multiply(intermediate.pointer, rows: tokens, inner: inner, by: layer.output, outputs: h, into: scratch.pointer, stride: h)
            Self.layerNorm(scratch.pointer, rows: tokens, width: h, norm: layer.outputNorm, epsilon: epsilon, into: hidden.pointer)
        }

        // Mean pooling over each sequence's tokens, then L2 normalisation.
        var vectors: [[Float]] = []
        vectors.reserveCapacity(sequences.count)
        var offset = 0
        for sequence in sequences {
            var vector = [Float](repeating: 0, count: h)
            vector.withUnsafeMutableBufferPointer { vector in
                guard let sum = vector.baseAddress else { return }
                for t in offset..<(offset + sequence.count) {
                    VectorKernels.accumulate(hidden.pointer + t * h, count: h, into: sum)
                }
                var norm: Float = 0
                for k in 0..<h { norm += sum[k] * sum[k] }
                // The mean's 1/n cancels in the normalisation; PyTorch's F.normalize clamps the norm at 1e-12.
                let inverse = 1 / max(norm.squareRoot(), 1e-12)
                for k in 0..<h { sum[k] *= inverse }
            }
            vectors.append(vector)
            offset += sequence.count
        }
        return vectors
    }

    // MARK: - Kernels

    /// A float buffer freed by its owner (a forward pass).
    private struct Buffer {
        let pointer: UnsafeMutablePointer<Float>
        init(_ count: Int) { pointer = .allocate(capacity: max(count, 1)) }
        func free() { pointer.deallocate() }
    }

    /// `out[r] += a[r] · Wᵀ` for `rows` rows: `a` is `[rows, inner]`, W is `[outputs, inner]`.
    private func multiply(
        _ a: UnsafePointer<Float>, rows: Int, inner: Int, by linear: Linear, outputs: Int,
        into out: UnsafeMutablePointer<Float>, stride: Int
    ) {
        blas.sgemm(
            CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(outputs), Int32(inner),
            1, a, Int32(inner), linear.weight, Int32(inner), 1, out, Int32(stride))
    }

    /// Sets each of `rows` rows (`stride` apart) to `values` (`width` floats).
    private static func fillRows(
        _ out: UnsafeMutablePointer<Float>, rows: Int, width: Int, stride: Int, with values: UnsafePointer<Float>
    ) {
        for r in 0..<rows { (out + r * stride).update(from: values, count: width) }
    }

    /// `out[r] = a[r] + bias` for each row.
    private static func add(
        _ a: UnsafePointer<Float>, _ bias: UnsafePointer<Float>, rows: Int, width: Int, into out: UnsafeMutablePointer<Float>
    ) {
        for r in 0..<rows { VectorKernels.add(a + r * width, bias, count: width, into: out + r * width) }
    }

    /// LayerNorm of each row of `x` (in place, or into `out`).
    private static func layerNorm(
        _ x: UnsafeMutablePointer<Float>, rows: Int, width: Int, norm: Norm, epsilon: Float,
        into out: UnsafeMutablePointer<Float>? = nil
    ) {
        let target = out ?? x
        for r in 0..<rows {
            VectorKernels.layerNorm(
                x + r * width, width: width, weight: norm.weight, bias: norm.bias, epsilon: epsilon, into: target + r * width)
        }
    }
}
