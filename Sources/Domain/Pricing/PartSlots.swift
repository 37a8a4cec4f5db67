/// Where the parts of a piece of work (``PartRunner``) leave their results: each slot is written
/// by one part only (a part's own result, or the items it was given), and read once every part
/// has ended.
public final class PartSlots<Value>: @unchecked Sendable {
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

extension PartRunner {
    /// Runs `count` parts and returns what each returned, in part order (whichever way they ran).
    public func collect<Value>(_ count: Int, _ body: @Sendable (Int) -> Value) -> [Value] {
        guard count > 1 else { return count == 1 ? [body(0)] : [] }
        let slots = PartSlots<Value?>(count: count, repeating: nil)
        run(count) { part in slots[part] = body(part) }
        return slots.all().map { $0.unsafelyUnwrapped }
    }
}
