/// Copies of a few bytes by loads and stores of whole words instead of a call to `memcpy`, which
/// costs as much as the copy for the short texts and fragments receipts and plists are made of.
public enum WordCopy {
    /// Copies `count` bytes, 4 to 16, as two words (or half-words) that overlap in the middle:
    /// reads and writes no byte outside `0..<count`.
    @inlinable @inline(__always)
    public static func copy(_ source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) {
        assert((4...16).contains(count), "WordCopy.copy copies 4 to 16 bytes")
        if count >= 8 {
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        }
    }

    /// Copies `vectors` × 16 bytes as that many 16-byte vectors (a count known when compiling: no loop).
    @inlinable @inline(__always)
    public static func copyVectors(_ vectors: Int, _ source: UnsafeRawPointer, to target: UnsafeMutableRawPointer) {
        for offset in stride(from: 0, to: vectors &* 16, by: 16) {
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self), toByteOffset: offset,
                as: SIMD16<UInt8>.self)
        }
    }
}
