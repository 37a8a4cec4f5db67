/// A fixed number of elements, each on cache lines of its own: two threads that each write their
/// own element (a worker's reader and encoder, a block's counts, for every cart) never write the
/// same cache line, which would pass it back and forth between their cores at every write.
struct SeparateLines<Element> {
    private let base: UnsafeMutableRawPointer
    let count: Int

    /// Bytes from one element to the next: whole pairs of 64-byte lines, since processors fetch
    /// lines in pairs.
    private static var stride: Int { (MemoryLayout<Element>.stride + 127) & ~127 }

    init(_ elements: [Element]) {
        self.init(uninitialized: elements.count)
        for (index, element) in elements.enumerated() { initialize(index, to: element) }
    }

    /// Room for `count` elements, each to be initialized (``initialize(_:to:)``) before use.
    init(uninitialized count: Int) {
        self.count = count
        base = .allocate(byteCount: max(1, count) * Self.stride, alignment: 128)
    }

    /// Initializes the element at `index`, which must not be initialized yet.
    func initialize(_ index: Int, to element: Element) {
        precondition(index >= 0 && index < count, "index out of range")
        (base + index * Self.stride).initializeMemory(as: Element.self, to: element)
    }

    /// The element at `index`, in place.
    func pointer(_ index: Int) -> UnsafeMutablePointer<Element> {
        precondition(index >= 0 && index < count, "index out of range")
        return (base + index * Self.stride).assumingMemoryBound(to: Element.self)
    }

    subscript(index: Int) -> Element {
        unsafeAddress { UnsafePointer(pointer(index)) }
        nonmutating unsafeMutableAddress { pointer(index) }
    }

    /// Destroys the elements (all initialized by then) and frees their memory; the value must not be
    /// used after.
    func deallocate() {
        for index in 0..<count { pointer(index).deinitialize(count: 1) }
        base.deallocate()
    }
}
