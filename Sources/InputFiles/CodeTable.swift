import Pricing

/// Product codes → catalog ids, looked up by their UTF-8 bytes: interning a scanned code costs a
/// hash and one comparison, and builds no String.
struct CodeTable: Sendable {
    /// All codes' bytes, back to back.
    private let bytes: [UInt8]
    private let starts: [Int32]
    private let lengths: [Int32]
    /// Open addressing, a power of two long: product id + 1, or 0 when empty.
    private let slots: [Int32]
    private let mask: Int

    init(catalog: Catalog) {
        var bytes: [UInt8] = []
        var starts: [Int32] = []
        var lengths: [Int32] = []
        for product in catalog.products {
            starts.append(Int32(bytes.count))
            lengths.append(Int32(product.code.utf8.count))
            bytes.append(contentsOf: product.code.utf8)
        }
        var capacity = 16
        while capacity < catalog.products.count * 2 { capacity <<= 1 }
        var slots = [Int32](repeating: 0, count: capacity)
        bytes.withUnsafeBufferPointer { all in
            for id in catalog.products.indices {
                var slot =
                    Int(truncatingIfNeeded: CodeTable.hash(all.baseAddress! + Int(starts[id]), Int(lengths[id])))
                    & (capacity - 1)
                while slots[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
                slots[slot] = Int32(id + 1)
            }
        }
        self.bytes = bytes
        self.starts = starts
        self.lengths = lengths
        self.slots = slots
        mask = capacity - 1
    }

    /// The id of the product whose code is these `count` bytes, or -1.
    @inline(__always)
    func lookup(_ code: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var slot = Int(truncatingIfNeeded: CodeTable.hash(code, count)) & mask
        return slots.withUnsafeBufferPointer { slots in
            bytes.withUnsafeBufferPointer { all in
                while true {
                    let entry = Int(slots[slot])
                    if entry == 0 { return -1 }
                    let id = entry - 1
                    if Int(lengths[id]) == count, memcmp(all.baseAddress! + Int(starts[id]), code, count) == 0 {
                        return id
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    /// FNV-1a over the bytes, then mixed so that the low bits index well.
    @inline(__always)
    static func hash(_ p: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for i in 0..<count { h = (h ^ UInt64(p[i])) &* 0x100_0000_01B3 }
        return h ^ (h >> 29)
    }
}

@inline(__always)
private func memcmp(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    for i in 0..<count where a[i] != b[i] { return 1 }
    return 0
}
