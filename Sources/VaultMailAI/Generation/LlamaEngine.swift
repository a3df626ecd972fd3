import CLlama
import Foundation
import VaultMailCore

/// The generative engine (AC-A-01, AC-A-02): llama.cpp over a GGUF model, on the CPU.
/// The file is memory-mapped, not copied; `unload()` frees the model and its context.
/// Not for concurrent use: `GenerationSession` calls it from one thread at a time.
public final class LlamaEngine: GenerativeEngine, @unchecked Sendable {
    /// Tokens of prompt and answer together.
    public let contextTokens: Int
    /// Threads that read a prompt (a batch of tokens: the work divides well).
    public let threads: Int
    /// Threads that write, one token at a time: each token's work is small, so threads that
    /// wait for each other cost more than they bring on a machine whose cores are busy. On 2
    /// cores with both busy, one thread wrote 48 tokens/s and two 16 (idle: 84 and 137).
    public let decodeThreads: Int
    private let lock = NSLock()
    private var loaded: LoadedModel?

    public init(contextTokens: Int = 2048, threads: Int = min(4, ProcessInfo.processInfo.activeProcessorCount),
                decodeThreads: Int? = nil) {
        self.contextTokens = contextTokens
        self.threads = max(1, threads)
        self.decodeThreads = max(1, min(self.threads, decodeThreads ?? ProcessInfo.processInfo.activeProcessorCount / 2))
    }

    deinit { loaded?.free() }

    /// The GGUF file of a model folder: the first `.gguf` file in it, by name.
    public static func modelFile(in directory: URL) -> URL? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".gguf") }.sorted().first.map { directory.appendingPathComponent($0) }
    }

    public func isModelAvailable(at directory: URL) -> Bool {
        Self.modelFile(in: directory) != nil
    }

    public var isModelLoaded: Bool { lock.withLock { loaded != nil } }

    public func load(from directory: URL) throws {
        try lock.withLock {
            if loaded?.directory == directory { return }
            loaded?.free()
            loaded = nil
            guard let file = Self.modelFile(in: directory) else {
                throw AIError.modelUnreadable(path: directory.path, reason: "it holds no .gguf file")
            }
            loaded = try LoadedModel(file: file, directory: directory, contextTokens: contextTokens, threads: threads,
                                     decodeThreads: decodeThreads)
        }
    }

    public func unload() {
        lock.withLock {
            guard let model = loaded else { return }
            model.free()
            loaded = nil
            // The context's buffers were tens of MiB of heap: give them back to the system now.
            ProcessMemory.returnFreeMemory()
        }
    }

    public func generate(_ request: GenerationRequest, emit: (String) -> Bool) throws -> GenerationStatistics {
        try lock.withLock {
            guard let loaded else { throw AIError.modelNotLoaded }
            return try loaded.generate(request, emit: emit)
        }
    }
}

/// A model in memory with its context (the KV cache) and its chat template.
///
/// The context keeps the tokens of the last generation: a prompt that begins the same way
/// (the three replies to one message differ only in their last lines) evaluates only what
/// differs.
final class LoadedModel {
    let directory: URL
    private let model: OpaquePointer
    private let context: OpaquePointer
    private let vocab: OpaquePointer
    /// ggml's worker threads for this context, sleeping between computations instead of
    /// spinning: spinning threads on a busy 2-core machine slow everything, the model first.
    private let threadpool: OpaquePointer
    private let template: String?
    private var freed = false
    /// The tokens whose keys and values the context holds, in order.
    private var cached: [llama_token] = []

    init(file: URL, directory: URL, contextTokens: Int, threads: Int, decodeThreads: Int) throws {
        try LlamaBackend.start()
        var modelParameters = llama_model_default_params()
        modelParameters.n_gpu_layers = 0
        modelParameters.load_mode = LLAMA_LOAD_MODE_MMAP
        guard let model = llama_model_load_from_file(file.path, modelParameters) else {
            throw AIError.modelUnreadable(path: file.path, reason: "llama.cpp could not load it as a GGUF model")
        }
        var contextParameters = llama_context_default_params()
        contextParameters.n_ctx = UInt32(contextTokens)
        contextParameters.n_batch = 512
        contextParameters.n_ubatch = 512
        contextParameters.n_threads = Int32(decodeThreads)
        contextParameters.n_threads_batch = Int32(threads)
        contextParameters.no_perf = true
        guard let context = llama_init_from_model(model, contextParameters) else {
            llama_model_free(model)
            throw AIError.modelUnreadable(path: file.path, reason: "llama.cpp could not make a context of \(contextTokens) tokens for it")
        }
        var poolParameters = ggml_threadpool_params_default(Int32(threads))
        poolParameters.poll = 0
        guard let threadpool = LlamaBackend.threadpoolNew(&poolParameters) else {
            llama_free(context)
            llama_model_free(model)
            throw AIError.generationFailed(reason: "llama.cpp could not start \(threads) threads")
        }
        llama_attach_threadpool(context, threadpool, threadpool)
        self.threadpool = threadpool
        self.directory = directory
        self.model = model
        self.context = context
        self.vocab = llama_model_get_vocab(model)
        self.template = llama_model_chat_template(model, nil).map { String(cString: $0) }
    }

    func free() {
        guard !freed else { return }
        freed = true
        llama_free(context)
        LlamaBackend.threadpoolFree(threadpool)
        llama_model_free(model)
    }

    func generate(_ request: GenerationRequest, emit: (String) -> Bool) throws -> GenerationStatistics {
        let clock = ContinuousClock()
        let start = clock.now
        let prompt = ChatPrompt.render(request.turns, template: template) + request.answerPrefix
        let tokens = try tokenize(prompt)
        let limit = Int(llama_n_ctx(context)) - request.maxTokens
        guard tokens.count <= limit else { throw AIError.promptTooLong(tokens: tokens.count, limit: limit) }

        let reused = try evaluate(tokens, reusingCache: true)
        let sampler = Self.makeSampler(vocabularySize: llama_vocab_n_tokens(vocab))
        defer { llama_sampler_free(sampler) }

        var output = StopScanner(stops: request.stop)
        var utf8 = UTF8Accumulator()
        var generated = 0
        var firstToken: ContinuousClock.Instant?
        while generated < request.maxTokens {
            let token = llama_sampler_sample(sampler, context, -1)
            if firstToken == nil { firstToken = clock.now }
            if llama_vocab_is_eog(vocab, token) { break }
            generated += 1
            let text = utf8.append(piece(of: token))
            let (ready, stopped) = output.feed(text)
            if !ready.isEmpty, !emit(ready) { break }
            if stopped { break }
            try evaluate([token], reusingCache: false)
        }
        let rest = output.finish() + utf8.flush()
        if !rest.isEmpty { _ = emit(rest) }
        let end = clock.now
        return GenerationStatistics(promptTokens: tokens.count, reusedPromptTokens: reused, generatedTokens: generated,
                                    timeToFirstToken: (firstToken ?? end) - start, total: end - start)
    }

    /// Greedy decoding with a light penalty on repeats among the 40 likeliest tokens: small
    /// models loop without one.
    private static func makeSampler(vocabularySize: Int32) -> UnsafeMutablePointer<llama_sampler> {
        let chain = llama_sampler_chain_init(llama_sampler_chain_default_params())!
        llama_sampler_chain_add(chain, llama_sampler_init_top_k(40))
        llama_sampler_chain_add(chain, llama_sampler_init_penalties(vocabularySize, 64, 1.15, 0, 0))
        llama_sampler_chain_add(chain, llama_sampler_init_greedy())
        return chain
    }

    private func tokenize(_ text: String) throws -> [llama_token] {
        let length = Int32(text.utf8.count)
        var tokens = [llama_token](repeating: 0, count: Int(length) + 8)
        var count = llama_tokenize(vocab, text, length, &tokens, Int32(tokens.count), true, true)
        if count < 0 {
            tokens = [llama_token](repeating: 0, count: Int(-count))
            count = llama_tokenize(vocab, text, length, &tokens, Int32(tokens.count), true, true)
        }
        guard count >= 0 else { throw AIError.generationFailed(reason: "the prompt could not be tokenized") }
        return Array(tokens.prefix(Int(count)))
    }

    /// Runs the model over `tokens`, in batches of the context's batch size, after what the
    /// context holds. A prompt (`reusingCache`) replaces what is there but its beginning, where
    /// it is the same as the last one's; at least its last token is evaluated, for its logits.
    /// Returns how many tokens were reused.
    @discardableResult
    private func evaluate(_ tokens: [llama_token], reusingCache: Bool) throws -> Int {
        let memory = llama_get_memory(context)
        var pending = tokens[...]
        var kept = 0
        if reusingCache {
            kept = zip(cached, tokens).prefix { $0 == $1 }.count
            kept = min(kept, tokens.count - 1)
            if kept == 0 || !llama_memory_seq_rm(memory, 0, llama_pos(kept), -1) {
                llama_memory_clear(memory, true)
                kept = 0
            }
            cached.removeSubrange(kept...)
            pending = tokens[kept...]
        }
        let batchSize = Int(llama_n_batch(context))
        var mutable = Array(pending)
        do {
            try mutable.withUnsafeMutableBufferPointer { buffer in
                var offset = 0
                while offset < buffer.count {
                    let count = min(batchSize, buffer.count - offset)
                    let status = llama_decode(context, llama_batch_get_one(buffer.baseAddress! + offset, Int32(count)))
                    guard status == 0 else { throw AIError.generationFailed(reason: "llama_decode returned \(status)") }
                    cached += buffer[offset..<(offset + count)]
                    offset += count
                }
            }
        } catch {
            llama_memory_clear(memory, true)
            cached = []
            throw error
        }
        return kept
    }

    private func piece(of token: llama_token) -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: 64)
        var count = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
        if count < 0 {
            buffer = [CChar](repeating: 0, count: Int(-count))
            count = llama_token_to_piece(vocab, token, &buffer, Int32(buffer.count), 0, false)
        }
        return buffer.prefix(Int(max(count, 0))).map { UInt8(bitPattern: $0) }
    }
}

/// llama.cpp's process-wide start, once, after the CPU code for this processor is loaded
/// (`LlamaCPUBackend`, which also silences its log). The thread pool's functions live in the
/// loaded CPU code, so they are looked up in it.
enum LlamaBackend {
    typealias ThreadpoolNew = @convention(c) (UnsafeMutablePointer<ggml_threadpool_params>?) -> OpaquePointer?
    typealias ThreadpoolFree = @convention(c) (OpaquePointer?) -> Void

    // @unchecked: two C function pointers of the loaded CPU code, fixed for the process's life.
    private struct Started: @unchecked Sendable {
        let threadpoolNew: ThreadpoolNew
        let threadpoolFree: ThreadpoolFree
    }

    private static let started: Result<Started, AIError> = Result {
        let registration = try LlamaCPUBackend.registration()
        llama_backend_init()
        guard let new = ggml_backend_reg_get_proc_address(registration, "ggml_threadpool_new"),
              let free = ggml_backend_reg_get_proc_address(registration, "ggml_threadpool_free") else {
            throw AIError.noProcessorCode(reason: "llama.cpp's CPU code has no thread pool")
        }
        return Started(threadpoolNew: unsafeBitCast(new, to: ThreadpoolNew.self), threadpoolFree: unsafeBitCast(free, to: ThreadpoolFree.self))
    }.mapError { $0 as? AIError ?? .noProcessorCode(reason: "\($0)") }

    static func start() throws { _ = try started.get() }

    static func threadpoolNew(_ parameters: UnsafeMutablePointer<ggml_threadpool_params>) -> OpaquePointer? {
        (try? started.get())?.threadpoolNew(parameters)
    }

    static func threadpoolFree(_ pool: OpaquePointer) {
        (try? started.get())?.threadpoolFree(pool)
    }
}
