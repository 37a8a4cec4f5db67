/// Output bytes written by hand: appends are a capacity check and a copy, without an Array's
/// uniqueness checks or the reference counting of constant arrays. Its owner frees it with
/// `deallocate()`; it is never copied between owners.
struct ByteBuffer {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private(set) var capacity: Int

    init(capacity: Int = 4_096) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    func deallocate() { base.deallocate() }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        guard count + extra > capacity else { return }
        let newCapacity = max(capacity * 2, count + extra)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends a String's UTF-8 (named apart from `append(_: StaticString)`, which literals must pick).
    mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    mutating func removeAll() { count = 0 }

    /// Lets `body` fill the next `length` bytes (reserved beforehand), then counts them in.
    @inline(__always)
    mutating func withSpace(_ length: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        precondition(count + length <= capacity, "reserve before writing")
        body(base + count)
        count += length
    }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Bytes `start..<start+length` appended earlier.
    @inline(__always)
    func slice(_ start: Int, _ length: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base + start, count: length) }
}
