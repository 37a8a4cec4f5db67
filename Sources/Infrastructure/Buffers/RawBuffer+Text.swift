extension RawBuffer where Element == UInt8 {
    /// Appends a literal's UTF-8.
    @inlinable @inline(__always)
    public mutating func append(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a String's UTF-8 (named apart from `append(_: StaticString)`, which literals must pick).
    @inlinable
    public mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends `count` bytes from `source`, a few words' worth copied by loads and stores of their
    /// own instead of a call to `memcpy` (a plist's texts are mostly shorter than 16 bytes, and
    /// the call cost as much as the copy). Reads no byte outside `source[0..<count]`.
    @inlinable @inline(__always)
    public mutating func appendBytes(_ source: UnsafePointer<UInt8>, _ count: Int) {
        guard count > 0 else { return }
        if stored + count > capacity { grow(to: stored + count) }
        let target = UnsafeMutableRawPointer(storage.unsafelyUnwrapped + stored)
        let from = UnsafeRawPointer(source)
        switch count {
        case 4...16:
            WordCopy.copy(from, to: target, count: count)
        case 1..<4:
            for i in 0..<count { target.storeBytes(of: source[i], toByteOffset: i, as: UInt8.self) }
        default:
            target.copyMemory(from: from, byteCount: count)
        }
        stored += count
    }
}
