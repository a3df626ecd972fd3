import CLlama
import Foundation
import VaultMailCore

/// A chat as the model was trained to read it: its own template (from the GGUF file) where
/// llama.cpp knows it, else ChatML, which most small instruction-tuned models use.
enum ChatPrompt {
    static func render(_ turns: [ChatTurn], template: String?) -> String {
        if let template, let text = apply(template, to: turns) { return text }
        return chatML(turns)
    }

    static func chatML(_ turns: [ChatTurn]) -> String {
        turns.map { "<|im_start|>\($0.role.rawValue)\n\($0.text)<|im_end|>\n" }.joined() + "<|im_start|>assistant\n"
    }

    /// llama.cpp's rendering of a known template, opening the assistant's turn; nil when it does
    /// not know the template.
    private static func apply(_ template: String, to turns: [ChatTurn]) -> String? {
        let roles = turns.map { strdup($0.role.rawValue) }
        let contents = turns.map { strdup($0.text) }
        defer { (roles + contents).forEach { free($0) } }
        let messages = zip(roles, contents).map { llama_chat_message(role: $0, content: $1) }
        var capacity = max(256, turns.reduce(0) { $0 + $1.text.utf8.count } * 2 + 256)
        for _ in 0..<2 {
            var buffer = [CChar](repeating: 0, count: capacity)
            let length = Int(llama_chat_apply_template(template, messages, messages.count, true, &buffer, Int32(capacity)))
            if length < 0 { return nil }
            if length <= capacity {
                return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            capacity = length
        }
        return nil
    }
}
