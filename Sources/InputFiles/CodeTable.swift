import Pricing

/// Product codes → catalog ids, looked up by their UTF-8 bytes: interning a scanned code costs a
/// hash, one probe that usually hits, and one comparison, and builds no String.
struct CodeTable: @unchecked Sendable {
    /// One slot of the open-addressing table.
    struct Entry {
        /// Product id + 1, or 0 when the slot is empty.
        var idPlusOne: Int32 = 0
        /// The high half of the code's hash, compared before the bytes.
        var tag: UInt32 = 0
        var start: Int32 = 0
        var length: Int32 = 0
    }

    /// Owns the memory `entries` and `bytes` point into; immutable once built, so shared freely.
    private final class Storage {
        let entries: UnsafeMutableBufferPointer<Entry>
        let bytes: UnsafeMutableBufferPointer<UInt8>

        init(slotCount: Int, byteCount: Int) {
            entries = .allocate(capacity: slotCount)
            entries.initialize(repeating: Entry())
            bytes = .allocate(capacity: max(byteCount, 1))
            bytes.initialize(repeating: 0)
        }

        deinit {
            entries.deallocate()
            bytes.deallocate()
        }
    }

    private let storage: Storage
    private let entries: UnsafePointer<Entry>
    /// All codes' bytes, back to back.
    private let bytes: UnsafePointer<UInt8>
    private let mask: Int

    init(catalog: Catalog) {
        let byteCount = catalog.products.reduce(0) { $0 + $1.code.utf8.count }
        var capacity = 16
        while capacity < catalog.products.count * 2 { capacity <<= 1 }
        let storage = Storage(slotCount: capacity, byteCount: byteCount)
        var offset = 0
        for (id, product) in catalog.products.enumerated() {
            let start = offset
            for byte in product.code.utf8 {
                storage.bytes[offset] = byte
                offset += 1
            }
            let hash = CodeTable.hash(UnsafePointer(storage.bytes.baseAddress! + start), offset - start)
            var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while storage.entries[slot].idPlusOne != 0 { slot = (slot + 1) & (capacity - 1) }
            storage.entries[slot] = Entry(
                idPlusOne: Int32(id + 1), tag: UInt32(truncatingIfNeeded: hash >> 32), start: Int32(start),
                length: Int32(offset - start))
        }
        self.storage = storage
        entries = UnsafePointer(storage.entries.baseAddress!)
        bytes = UnsafePointer(storage.bytes.baseAddress!)
        mask = capacity - 1
    }

    /// The id of the product whose code is these `count` bytes, or -1.
    @inline(__always)
    func lookup(_ code: UnsafePointer<UInt8>, _ count: Int) -> Int {
        let hash = CodeTable.hash(code, count)
        let tag = UInt32(truncatingIfNeeded: hash >> 32)
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = entries[slot]
            if entry.idPlusOne == 0 { return -1 }
            if entry.tag == tag, Int(entry.length) == count, same(bytes + Int(entry.start), code, count) {
                return Int(entry.idPlusOne) - 1
            }
            slot = (slot + 1) & mask
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
private func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    for i in 0..<count where a[i] != b[i] { return false }
    return true
}
