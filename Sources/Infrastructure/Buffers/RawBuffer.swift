/// A growable buffer of plain values for hot paths: appends are a capacity check and a store (or a
/// memcpy), with none of an Array's uniqueness checks or reference counting. A value of this type
/// is a handle: its owner frees the storage with `deallocate()` and never lets two copies grow it.
public struct RawBuffer<Element: BitwiseCopyable> {
    @usableFromInline var storage: UnsafeMutablePointer<Element>?
    @usableFromInline var stored = 0
    @usableFromInline var capacity = 0

    /// How many elements it holds.
    @inlinable public var count: Int { stored }

    @inlinable
    public init(capacity: Int = 0) {
        if capacity > 0 { reserve(capacity) }
    }

    /// Frees the storage; the buffer is empty afterwards.
    public mutating func deallocate() {
        storage?.deallocate()
        storage = nil
        stored = 0
        capacity = 0
    }

    /// Makes room for at least `minimum` elements in all.
    @inlinable
    public mutating func reserve(_ minimum: Int) {
        guard minimum > capacity else { return }
        grow(to: minimum)
    }

    @usableFromInline
    mutating func grow(to minimum: Int) {
        let newCapacity = max(minimum, capacity * 2, 16)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let storage {
            grown.update(from: storage, count: stored)
            storage.deallocate()
        }
        storage = grown
        capacity = newCapacity
    }

    @inlinable @inline(__always)
    public mutating func append(_ element: Element) {
        if stored == capacity { grow(to: stored + 1) }
        storage.unsafelyUnwrapped[stored] = element
        stored += 1
    }

    @inlinable @inline(__always)
    public mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        if stored + elements.count > capacity { grow(to: stored + elements.count) }
        (storage.unsafelyUnwrapped + stored).update(from: source, count: elements.count)
        stored += elements.count
    }

    /// Lets `body` write the next `length` elements, then counts them in.
    @inlinable @inline(__always)
    public mutating func appendUninitialized(_ length: Int, _ body: (UnsafeMutablePointer<Element>) -> Void) {
        if stored + length > capacity { grow(to: stored + length) }
        body(storage.unsafelyUnwrapped + stored)
        stored += length
    }

    /// Makes room for `maximum` elements, lets `body` write up to that many after the last, and
    /// counts in as many as it says it wrote.
    @inlinable @inline(__always)
    public mutating func appendAtMost(_ maximum: Int, _ body: (UnsafeMutablePointer<Element>) -> Int) {
        if stored + maximum > capacity { grow(to: stored + maximum) }
        let written = body(storage.unsafelyUnwrapped + stored)
        assert(written >= 0 && written <= maximum, "wrote more than it made room for")
        stored += written
    }

    @inlinable @inline(__always)
    public subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < stored, "RawBuffer index out of range")
            return storage.unsafelyUnwrapped[index]
        }
        set {
            precondition(index >= 0 && index < stored, "RawBuffer index out of range")
            storage.unsafelyUnwrapped[index] = newValue
        }
    }

    @inlinable
    public mutating func popLast() -> Element? {
        guard stored > 0 else { return nil }
        stored -= 1
        return storage.unsafelyUnwrapped[stored]
    }

    /// Keeps the first `newCount` elements.
    @inlinable
    public mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= stored)
        stored = newCount
    }

    /// Empties the buffer, keeping its storage.
    @inlinable
    public mutating func removeAll() { stored = 0 }

    /// The elements, valid until the buffer next grows or is freed.
    @inlinable
    public var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: storage, count: stored) }

    /// Elements `start..<start+length`, valid until the buffer next grows or is freed.
    @inlinable @inline(__always)
    public func elements(_ start: Int, count length: Int) -> UnsafeBufferPointer<Element> {
        precondition(start >= 0 && length >= 0 && start + length <= stored, "RawBuffer range out of range")
        return UnsafeBufferPointer(start: storage.unsafelyUnwrapped + start, count: length)
    }

    @inlinable
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(elements)
    }
}
