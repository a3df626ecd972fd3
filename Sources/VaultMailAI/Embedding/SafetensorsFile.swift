import Foundation
import VaultMailCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `.safetensors` file mapped read-only into memory (never copied into the heap): the JSON
/// header's tensors by name, each a view into the mapping. The mapping lives as long as this
/// object; a tensor pointer must not outlive it.
///
/// Format: an 8-byte little-endian header length, the header (JSON: name → dtype, shape,
/// data_offsets relative to the end of the header), then the tensors' bytes.
final class SafetensorsFile: @unchecked Sendable {  // immutable after init; the mapping is read-only and freed only in deinit
    /// One tensor as the header describes it.
    struct Tensor: Sendable {
        var dtype: String
        var shape: [Int]
        /// Byte range in the file (absolute).
        var bytes: Range<Int>
    }

    let path: String
    let tensors: [String: Tensor]
    private let base: UnsafeRawPointer
    private let length: Int

    /// Maps `url` and reads its header. Throws `AIError.modelUnreadable` when the file is missing,
    /// empty, truncated or its header is not a safetensors header.
    init(url: URL) throws {
        let path = url.path
        self.path = path
        func unreadable(_ reason: String) -> AIError { .modelUnreadable(path: path, reason: reason) }

        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw unreadable("cannot open it (\(String(cString: strerror(errno))))") }
        defer { close(descriptor) }  // the mapping stays valid after the descriptor is closed
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw unreadable("cannot stat it (\(String(cString: strerror(errno))))") }
        let length = Int(status.st_size)
        guard length >= 8 else { throw unreadable("the file is \(length) bytes, too short for a safetensors header") }
        guard let mapped = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0),
              mapped != UnsafeMutableRawPointer(bitPattern: -1)  // MAP_FAILED
        else { throw unreadable("cannot map it into memory (\(String(cString: strerror(errno))))") }
        let base = UnsafeRawPointer(mapped)

        do {
            tensors = try Self.readHeader(base: base, length: length, unreadable: unreadable)
        } catch {
            munmap(mapped, length)
            throw error
        }
        self.base = base
        self.length = length
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: base), length)
    }

    /// The float32 tensor `name` (or `bert.`+`name`, as some exports prefix BERT's weights),
    /// checked against `shape`.
    func floats(_ name: String, shape expected: [Int]) throws -> UnsafePointer<Float> {
        guard let tensor = tensors[name] ?? tensors["bert." + name] else {
            throw AIError.modelUnreadable(path: path, reason: "it has no tensor \(name)")
        }
        guard tensor.dtype == "F32" else {
            throw AIError.modelUnreadable(path: path, reason: "tensor \(name) is \(tensor.dtype), expected F32")
        }
        guard tensor.shape == expected else {
            throw AIError.modelUnreadable(
                path: path, reason: "tensor \(name) has shape \(tensor.shape), expected \(expected) (config.json does not match the weights)")
        }
        let start = base + tensor.bytes.lowerBound
        guard Int(bitPattern: start) % MemoryLayout<Float>.alignment == 0 else {
            throw AIError.modelUnreadable(path: path, reason: "tensor \(name) is not aligned to 4 bytes")
        }
        return start.assumingMemoryBound(to: Float.self)
    }

    private static func readHeader(
        base: UnsafeRawPointer, length: Int, unreadable: (String) -> AIError
    ) throws -> [String: Tensor] {
        let headerLength = UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))
        guard headerLength <= UInt64(length - 8), headerLength <= 100_000_000 else {
            throw unreadable("its header claims \(headerLength) bytes but the file is \(length) bytes: it is truncated or not a safetensors file")
        }
        let dataStart = 8 + Int(headerLength)
        let header = Data(bytes: base + 8, count: Int(headerLength))
        guard let json = try? JSONSerialization.jsonObject(with: header), let entries = json as? [String: Any] else {
            throw unreadable("its header is not a JSON object: it is not a safetensors file")
        }
        var tensors: [String: Tensor] = [:]
        for (name, value) in entries where name != "__metadata__" {
            guard let entry = value as? [String: Any],
                  let dtype = entry["dtype"] as? String,
                  let shape = entry["shape"] as? [Int],
                  let offsets = entry["data_offsets"] as? [Int], offsets.count == 2,
                  offsets[0] >= 0, offsets[0] <= offsets[1]
            else { throw unreadable("the header entry of tensor \(name) is malformed") }
            let bytes = (dataStart + offsets[0])..<(dataStart + offsets[1])
            guard bytes.upperBound <= length else {
                throw unreadable("tensor \(name) ends at byte \(bytes.upperBound) but the file has \(length) bytes: it is truncated")
            }
            if let size = elementSize(dtype) {
                let count = shape.reduce(1, *)
                guard shape.allSatisfy({ $0 >= 0 }), count * size == bytes.count else {
                    throw unreadable("tensor \(name) holds \(bytes.count) bytes, not the \(count * size) its shape \(shape) needs")
                }
            }
            tensors[name] = Tensor(dtype: dtype, shape: shape, bytes: bytes)
        }
        return tensors
    }

    private static func elementSize(_ dtype: String) -> Int? {
        switch dtype {
        case "F64", "I64", "U64": 8
        case "F32", "I32", "U32": 4
        case "F16", "BF16", "I16", "U16": 2
        case "I8", "U8", "BOOL": 1
        default: nil
        }
    }
}
