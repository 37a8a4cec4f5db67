/// A growable buffer of plain values for the reader's hot path: appends are a bounds check and a
/// store (or a memcpy), with none of an Array's uniqueness checks. Its owner frees it with
/// `deallocate()`; it is never copied between owners.
struct RawBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>?
    private(set) var count = 0
    private var capacity = 0

    init(capacity: Int = 0) {
        if capacity > 0 { reserve(capacity) }
    }

    mutating func deallocate() {
        base?.deallocate()
        base = nil
        count = 0
        capacity = 0
    }

    /// Makes room for at least `minimum` elements in all.
    mutating func reserve(_ minimum: Int) {
        guard minimum > capacity else { return }
        let newCapacity = max(minimum, capacity * 2, 16)
        let grown = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
        if let base {
            grown.update(from: base, count: count)
            base.deallocate()
        }
        base = grown
        capacity = newCapacity
    }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { reserve(count + 1) }
        base.unsafelyUnwrapped[count] = element
        count += 1
    }

    @inline(__always)
    mutating func append(contentsOf elements: UnsafeBufferPointer<Element>) {
        guard let source = elements.baseAddress, !elements.isEmpty else { return }
        if count + elements.count > capacity { reserve(count + elements.count) }
        (base.unsafelyUnwrapped + count).update(from: source, count: elements.count)
        count += elements.count
    }

    @inline(__always)
    subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "RawBuffer index out of range")
            return base.unsafelyUnwrapped[index]
        }
        set {
            precondition(index >= 0 && index < count, "RawBuffer index out of range")
            base.unsafelyUnwrapped[index] = newValue
        }
    }

    mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        return base.unsafelyUnwrapped[count]
    }

    /// Keeps the first `newCount` elements.
    mutating func truncate(to newCount: Int) {
        precondition(newCount >= 0 && newCount <= count)
        count = newCount
    }

    mutating func removeAll() { count = 0 }

    func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }
}
