import Pricing

/// Product codes → catalog ids, looked up by their UTF-8 bytes: interning a scanned code costs a
/// hash of a word or two, one probe that usually hits, and a comparison of those words, and builds no
/// String.
///
/// A code is keyed by its first 8 bytes and its last 8 (little-endian words, the bytes past a code
/// shorter than 8 zero), so that the codes catalogs use, up to 16 bytes, are hashed and compared
/// without a loop over their bytes; a longer code's middle is hashed too, and compared byte by byte
/// once its words and length match. A slot holds the first word, the length and the id (16 bytes);
/// the last word, needed only for codes of more than 8 bytes, is kept per product beside it.
struct CodeTable: @unchecked Sendable {
    /// One slot of the open-addressing table.
    struct Entry {
        /// The code's first 8 bytes; fewer, the rest zero.
        var head: UInt64 = 0
        /// Product id + 1, or 0 when the slot is empty.
        var idPlusOne: Int32 = 0
        var length: Int32 = 0
    }

    /// Owns the memory `entries`, `bytes`, `starts` and `tails` point into; immutable once built, so
    /// shared freely.
    private final class Storage {
        let entries: UnsafeMutableBufferPointer<Entry>
        let bytes: UnsafeMutableBufferPointer<UInt8>
        let starts: UnsafeMutableBufferPointer<Int32>
        let tails: UnsafeMutableBufferPointer<UInt64>

        init(slotCount: Int, byteCount: Int, productCount: Int) {
            entries = .allocate(capacity: slotCount)
            entries.initialize(repeating: Entry())
            // A word past the last code, so that every code's words are loaded from inside the buffer.
            bytes = .allocate(capacity: byteCount + 8)
            bytes.initialize(repeating: 0)
            starts = .allocate(capacity: productCount + 1)
            starts.initialize(repeating: 0)
            tails = .allocate(capacity: max(productCount, 1))
            tails.initialize(repeating: 0)
        }

        deinit {
            entries.deallocate()
            bytes.deallocate()
            starts.deallocate()
            tails.deallocate()
        }
    }

    private let storage: Storage
    private let entries: UnsafePointer<Entry>
    /// All codes' bytes, back to back; product `id`'s from `starts[id]` to `starts[id + 1]`.
    private let bytes: UnsafePointer<UInt8>
    private let starts: UnsafePointer<Int32>
    /// Per product, its code's last 8 bytes (codes of more than 8), compared once the first 8 match.
    private let tails: UnsafePointer<UInt64>
    private let mask: Int
    /// The longest code's length in bytes: a longer string is no code of the catalog.
    let longestCode: Int

    /// Builds the table in two passes: the codes' bytes and hashes in catalog order, then the
    /// entries in the order of their home slots (a counting sort by region), so that a large
    /// catalog fills the table front to back instead of with a cache miss per product.
    init(catalog: Catalog) {
        let count = catalog.products.count
        // At most a quarter full for catalogs of up to 65,536 products (64 KB for 1,000), half full
        // above: a code's first probe then hits more often, and a second probe is a branch the
        // processor mispredicts.
        let capacity = HashTableFill.capacity(for: count <= 1 << 16 ? 2 * count : count)
        let byteCount = catalog.products.reduce(0) { $0 + $1.code.utf8.count }
        let storage = Storage(slotCount: capacity, byteCount: byteCount, productCount: count)
        var offset = 0
        for (id, product) in catalog.products.enumerated() {
            var code = product.code
            code.withUTF8 { utf8 in
                guard let source = utf8.baseAddress else { return }
                UnsafeMutableRawPointer(storage.bytes.baseAddress! + offset).copyMemory(
                    from: source, byteCount: utf8.count)
                offset += utf8.count
            }
            storage.starts[id + 1] = Int32(offset)
        }
        let bytes = UnsafePointer(storage.bytes.baseAddress!)
        let starts = UnsafePointer(storage.starts.baseAddress!)
        var keys: [Key] = []
        keys.reserveCapacity(count)
        var hashes = [UInt64](repeating: 0, count: count)
        for id in 0..<count {
            let start = Int(starts[id])
            let key = Key(bytes + start, Int(starts[id + 1]) - start, readable: byteCount + 8 - start)
            keys.append(key)
            hashes[id] = key.hash
        }
        let order = HashTableFill.order(of: 0..<count, count: count, hashes: hashes, capacity: capacity)
        for id in order.lazy.map(Int.init) {
            let key = keys[id]
            var slot = Int(truncatingIfNeeded: key.hash) & (capacity - 1)
            while storage.entries[slot].idPlusOne != 0 { slot = (slot + 1) & (capacity - 1) }
            storage.entries[slot] = Entry(
                head: key.head, idPlusOne: Int32(id + 1), length: Int32(key.length))
            storage.tails[id] = key.tail
        }
        self.storage = storage
        entries = UnsafePointer(storage.entries.baseAddress!)
        self.bytes = bytes
        self.starts = starts
        tails = UnsafePointer(storage.tails.baseAddress!)
        mask = capacity - 1
        longestCode = (0..<count).reduce(0) { max($0, Int(starts[$1 + 1] - starts[$1])) }
    }

    /// The id of the product whose code is the `count` bytes at `code`, or -1. `readable` is how
    /// many bytes from `code` may be read (at least `count`): a code shorter than 8 bytes is loaded
    /// as one word when 8 are.
    @inline(__always)
    func lookup(_ code: UnsafePointer<UInt8>, _ count: Int, readable: Int) -> Int {
        find(Key(code, count, readable: readable), code)
    }

    /// The id of the product whose code is the `count` bytes, fewer than 8, at the low end of `word`
    /// (the bytes above them ignored), or -1: a code the scanner found inside the word it loaded.
    @inline(__always)
    func lookup(word: UInt64, count: Int) -> Int {
        find(Key(shortCode: word, count: count), nil)
    }

    @inline(__always)
    private func find(_ key: Key, _ code: UnsafePointer<UInt8>?) -> Int {
        var slot = Int(truncatingIfNeeded: key.hash) & mask
        while true {
            let entry = entries[slot]
            if entry.idPlusOne == 0 { return -1 }
            if entry.head == key.head, Int(entry.length) == key.length,
                key.length <= 8 || sameRest(Int(entry.idPlusOne) - 1, key, code)
            {
                return Int(entry.idPlusOne) - 1
            }
            slot = (slot + 1) & mask
        }
    }

    /// Whether product `id`'s code, whose first 8 bytes and length match a code of more than 8,
    /// has that code's last 8 bytes and (past 16) the bytes between.
    @inline(__always)
    private func sameRest(_ id: Int, _ key: Key, _ code: UnsafePointer<UInt8>?) -> Bool {
        guard tails[id] == key.tail else { return false }
        guard key.length > 16 else { return true }
        let own = bytes + Int(starts[id])
        for i in 8..<(key.length - 8) where own[i] != code![i] { return false }
        return true
    }

    /// A code's words, length and hash.
    struct Key {
        let head: UInt64
        let tail: UInt64
        let length: Int
        let hash: UInt64

        @inline(__always)
        init(_ code: UnsafePointer<UInt8>, _ count: Int, readable: Int) {
            if count < 8 {
                var word: UInt64
                if readable >= 8 {
                    word = Cursor.load8(code)
                } else {
                    word = 0
                    for i in 0..<count { word |= UInt64(code[i]) &<< (8 * i) }
                }
                self.init(shortCode: word, count: count)
                return
            }
            let head = Cursor.load8(code)
            let tail = Cursor.load8(code + count - 8)
            var h = Key.mix(head, tail, count)
            if count > 16 {
                // The middle, a word at a time (the last word overlapping the tail).
                var i = 8
                while i < count - 8 {
                    h = (h ^ Cursor.load8(code + i)) &* 0xFF51_AFD7_ED55_8CCD
                    h ^= h >> 29
                    i += 8
                }
            }
            self.init(head: head, tail: tail, length: count, hash: Key.finish(h))
        }

        /// A code of fewer than 8 bytes, the low `count` bytes of `word`.
        @inline(__always)
        init(shortCode word: UInt64, count: Int) {
            let head = word & ((1 &<< (8 * UInt64(count))) &- 1)
            self.init(head: head, tail: 0, length: count, hash: Key.finish(Key.mix(head, 0, count)))
        }

        @inline(__always)
        private init(head: UInt64, tail: UInt64, length: Int, hash: UInt64) {
            (self.head, self.tail, self.length, self.hash) = (head, tail, length, hash)
        }

        @inline(__always)
        static func mix(_ head: UInt64, _ tail: UInt64, _ count: Int) -> UInt64 {
            head &* 0x9E37_79B9_7F4A_7C15 ^ tail &* 0xC2B2_AE3D_27D4_EB4F ^ UInt64(truncatingIfNeeded: count)
        }

        @inline(__always)
        static func finish(_ h: UInt64) -> UInt64 {
            var h = h ^ h >> 32
            h &*= 0xD6E8_FEB8_6659_FD93
            return h ^ h >> 32
        }
    }
}
