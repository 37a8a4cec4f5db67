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
    /// The longest code's length in bytes: a longer string is no code of the catalog.
    let longestCode: Int

    /// Builds the table in two passes: the codes' bytes and hashes in catalog order, then the
    /// entries in the order of their home slots (a counting sort by region), so that a large
    /// catalog fills the table front to back instead of with a cache miss per product.
    init(catalog: Catalog) {
        let count = catalog.products.count
        let capacity = HashTableFill.capacity(for: count)
        let byteCount = catalog.products.reduce(0) { $0 + $1.code.utf8.count }
        let storage = Storage(slotCount: capacity, byteCount: byteCount)
        var hashes = [UInt64](repeating: 0, count: count)
        var starts = [Int32](repeating: 0, count: count + 1)
        var offset = 0
        for (id, product) in catalog.products.enumerated() {
            var code = product.code
            code.withUTF8 { utf8 in
                guard let source = utf8.baseAddress else { return }
                UnsafeMutableRawPointer(storage.bytes.baseAddress! + offset).copyMemory(
                    from: source, byteCount: utf8.count)
                hashes[id] = CodeTable.hash(source, utf8.count)
                offset += utf8.count
            }
            starts[id + 1] = Int32(offset)
        }
        let order = HashTableFill.order(of: 0..<count, count: count, hashes: hashes, capacity: capacity)
        for id in order.lazy.map(Int.init) {
            let hash = hashes[id]
            var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
            while storage.entries[slot].idPlusOne != 0 { slot = (slot + 1) & (capacity - 1) }
            storage.entries[slot] = Entry(
                idPlusOne: Int32(id + 1), tag: UInt32(truncatingIfNeeded: hash >> 32), start: starts[id],
                length: starts[id + 1] - starts[id])
        }
        self.storage = storage
        entries = UnsafePointer(storage.entries.baseAddress!)
        bytes = UnsafePointer(storage.bytes.baseAddress!)
        mask = capacity - 1
        longestCode = (0..<count).reduce(0) { max($0, Int(starts[$1 + 1] - starts[$1])) }
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

    /// The hash of every code table (``productCodeHash(_:)``).
    @inline(__always)
    static func hash(_ p: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
        productCodeHash(UnsafeBufferPointer(start: p, count: count))
    }
}

@inline(__always)
private func same(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    for i in 0..<count where a[i] != b[i] { return false }
    return true
}
