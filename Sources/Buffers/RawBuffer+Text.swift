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
}
