import Pricing
import Promotions
import StrictJSON

/// A report being written as UTF-8 bytes, handed out a chunk at a time: tens of thousands of
/// diagnostics are written without a `String` per piece, and a large report is never held whole.
/// The text and JSON reporters write through it; what they write is the same, byte for byte, as
/// their plain forms (``TextReporter/line(_:file:notes:)``, ``JSONReporter/renderPlain(_:)``), which the
/// tests compare it with.
struct ReportBytes {
    private var bytes: [UInt8] = []
    private let chunk: Int
    private let write: (UnsafeBufferPointer<UInt8>) -> Void

    /// `write` is given the bytes each time `chunk` of them are ready, and the rest at ``finish()``.
    init(chunk: Int = 1 << 16, write: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.chunk = chunk
        self.write = write
        bytes.reserveCapacity(chunk + 4096)
    }

    /// Bytes kept until ``take()``: a block of a report written on another core.
    private init(block: Void) {
        chunk = .max
        write = { _ in }
    }

    /// Hands out what is ready once a chunk is full: call between items, never inside one.
    mutating func flushIfFull() {
        if bytes.count >= chunk { flush() }
    }

    private mutating func flush() {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBufferPointer { write($0) }
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func finish() {
        flush()
    }

    /// Items `0..<count`, in order, each written by `item(i, &out)`. With `parts`, blocks of them
    /// are written at once, each into bytes of its own, a window of blocks at a time (a report is
    /// still never held whole), then appended in order: the same bytes as one after the other.
    mutating func appendItems(
        _ count: Int, parts: PartRunner?, _ item: @escaping @Sendable (Int, inout ReportBytes) -> Void
    ) {
        // A window of 2,048 items, some 400 KB of text: enough for two cores to share, little
        // enough not to raise the command's peak memory.
        let blockSize = 512
        let window = 4
        guard let parts, count >= 2 * blockSize else {
            for index in 0..<count {
                item(index, &self)
                flushIfFull()
            }
            return
        }
        var start = 0
        while start < count {
            let end = min(count, start + blockSize * window)
            let blocks = (end - start + blockSize - 1) / blockSize
            var written = [[UInt8]](repeating: [], count: blocks)
            written.withUnsafeMutableBufferPointer { written in
                let slots = BlockSlots(buffer: written)
                parts.run(blocks) { [start] block in
                    var out = ReportBytes(block: ())
                    for index in (start + block * blockSize)..<min(end, start + (block + 1) * blockSize) {
                        item(index, &out)
                    }
                    slots.buffer[block] = out.bytes
                }
            }
            for block in written {
                bytes.append(contentsOf: block)
                flushIfFull()
            }
            start = end
        }
    }

    /// Where the blocks of ``appendItems(_:parts:_:)`` are left: each part writes its own.
    private struct BlockSlots: @unchecked Sendable {
        let buffer: UnsafeMutableBufferPointer<[UInt8]>
    }

    mutating func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            var text = text
            text.withUTF8 { bytes.append(contentsOf: $0) }
        }
    }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    /// `n` in decimal, as `String(n)` writes it.
    mutating func append(decimal n: Int) {
        if n < 0 {
            bytes.append(UInt8(ascii: "-"))
        }
        var magnitude = n.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: enough for 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude != 0
            bytes.append(contentsOf: buffer[(24 - count)...])
        }
    }

    /// `value` as a JSON string literal, quoted and escaped by `JSONEscape`, as `JSONWriter` writes it.
    mutating func appendJSONString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { JSONEscape.append($0, to: &bytes) }
        bytes.append(UInt8(ascii: "\""))
    }
}
