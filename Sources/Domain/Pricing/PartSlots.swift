/// Where the parts of a piece of work (``PartRunner``) leave their results: each slot is written
/// by one part only (a part's own result, or the items it was given), and read once every part
/// has ended.
public final class PartSlots<Value: Sendable>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Value>

    public init(count: Int, repeating value: Value) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: value)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    public var count: Int { slots.count }

    /// Slot `slot`: set by one part only, read after the parts have ended.
    public subscript(slot: Int) -> Value {
        get { slots[slot] }
        set { slots[slot] = newValue }
    }

    /// Every slot's value, in part order.
    public func all() -> [Value] { Array(slots) }
}

/// Memory that the parts of a piece of work fill in place, each part its own elements (its
/// ``PartRunner/share(_:of:in:)``, or the elements it was given): the buffer itself is shared, what
/// each part writes is not.
public struct PartBuffer<Element>: @unchecked Sendable {
    public let buffer: UnsafeMutableBufferPointer<Element>

    public init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        self.buffer = buffer
    }
}

extension PartRunner {
    /// Runs `count` parts and returns what each returned, in part order (whichever way they ran).
    public func collect<Value: Sendable>(_ count: Int, _ body: @Sendable (Int) -> Value) -> [Value] {
        guard count > 1 else { return count == 1 ? [body(0)] : [] }
        let slots = PartSlots<Value?>(count: count, repeating: nil)
        run(count) { part in slots[part] = body(part) }
        return slots.all().map { result in
            guard let result else { preconditionFailure("a part runner left a part out") }
            return result
        }
    }

    /// Into how many parts work over `count` items splits: as many as this runs at once, each of
    /// at least `minimum` items, and at least one.
    public func partCount(_ count: Int, eachAtLeast minimum: Int) -> Int {
        min(width, max(1, count / max(1, minimum)))
    }

    /// Part `part`'s share of `count` items split into `parts` about equal ranges, in order: the
    /// ranges of parts 0…`parts` − 1 cover 0..<`count`, each item once.
    @inline(__always)
    public static func share(_ part: Int, of count: Int, in parts: Int) -> Range<Int> {
        (count * part / parts)..<(count * (part + 1) / parts)
    }
}
