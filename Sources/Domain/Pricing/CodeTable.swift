/// A catalog's codes → product ids: the one table behind ``Catalog/productID(for:)`` and the cart
/// scanner, which looks codes up by their UTF-8 bytes as it reads them (docs/performance.md, "Carts").
///
/// A code is keyed by its first 8 bytes and its last 8 (little-endian words, the bytes past a code
/// shorter than 8 zero), so that the codes catalogs use, up to 16 bytes, are hashed and compared
/// without a loop over their bytes; a longer code's middle is hashed too, and compared byte by byte
/// once its words and length match. A slot holds the first word, the length and the id (16 bytes);
/// the last word, needed only for codes of more than 8 bytes, is kept per product beside it.
/// Interning a scanned code costs a hash of a word or two, one probe that usually hits, and a
/// comparison of those words, and builds no String.
///
/// Looked up by a String it finds exactly what a `[String: ProductID]` finds: codes are equal when
/// their strings are (canonically equivalent), so codes with other characters than ASCII are also
/// kept in Swift's own dictionary, and joined to an ASCII one where they equal it (`"\u{212A}"`, the
/// Kelvin sign, is the letter `K`). Looked up by bytes it finds the code spelled with exactly those
/// bytes; a cart that spells a code otherwise is left to the reader that compares strings.
public struct CodeTable: Sendable {
    /// One slot of the open-addressing table.
    @usableFromInline
    struct Entry {
        /// The code's first 8 bytes; fewer, the rest zero.
        @usableFromInline var head: UInt64 = 0
        /// Product id + 1, or 0 when the slot is empty.
        @usableFromInline var idPlusOne: Int32 = 0
        @usableFromInline var length: Int32 = 0

        init() {}

        init(head: UInt64, idPlusOne: Int32, length: Int32) {
            (self.head, self.idPlusOne, self.length) = (head, idPlusOne, length)
        }
    }

    /// Owns the memory `entries`, `bytes`, `starts` and `tails` point into; immutable once built, so
    /// shared freely.
    @usableFromInline
    final class Storage: @unchecked Sendable {
        let entries: UnsafeMutableBufferPointer<Entry>
        let bytes: UnsafeMutableBufferPointer<UInt8>
        let starts: UnsafeMutableBufferPointer<Int32>
        let tails: UnsafeMutableBufferPointer<UInt64>
        var longestCode = 0

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

    /// Two words, so that a catalog, which holds the table and is copied into what uses it, stays
    /// small; ``bytes`` has the addresses a lookup needs.
    private let storage: Storage
    /// Codes that are not all ASCII, by their strings.
    private let others: [String: ProductID]

    /// The table's lookups by bytes, for the cart scanner: the addresses they read, loaded once.
    public var bytes: ByteLookup { ByteLookup(storage) }

    /// The longest code's length in bytes: a longer string is no code of the catalog.
    public var longestCode: Int { storage.longestCode }

    /// Two codes that are the same: the later one's position, and the first one's.
    struct Duplicate: Equatable {
        var index: Int
        var first: Int
    }

    /// The table of the products' codes, and the first code (in catalog order) that repeats an
    /// earlier one. Empty codes are left out.
    ///
    /// Built in two passes: the codes' bytes and hashes in catalog order, then the entries in the
    /// order of their home slots (a counting sort by region), so that a large catalog fills the
    /// table front to back instead of with a cache miss per product.
    static func build(_ products: [Product]) -> (table: CodeTable, duplicate: Duplicate?) {
        let count = products.count
        var duplicate: Duplicate?
        func found(_ index: Int, _ first: Int) {
            let pair = Duplicate(index: max(index, first), first: min(index, first))
            if duplicate == nil || pair.index < duplicate!.index { duplicate = pair }
        }
        var byteCount = 0
        var indexed = 0
        for product in products where !product.code.isEmpty {
            byteCount += product.code.utf8.count
            indexed += 1
        }
        // At most a quarter full for catalogs of up to 65,536 products (64 KB for 1,000), half full
        // above: a code's first probe then hits more often, and a second probe is a branch the
        // processor mispredicts.
        let capacity = HashTableFill.capacity(for: indexed <= 1 << 16 ? 2 * indexed : indexed)
        let storage = Storage(slotCount: capacity, byteCount: byteCount, productCount: count)
        var others: [String: ProductID] = [:]
        var offset = 0
        for (id, product) in products.enumerated() {
            var code = product.code
            let ascii = code.withUTF8 { utf8 -> Bool in
                guard let source = utf8.baseAddress else { return true }
                UnsafeMutableRawPointer(storage.bytes.baseAddress! + offset).copyMemory(
                    from: source, byteCount: utf8.count)
                offset += utf8.count
                return isASCII(utf8)
            }
            storage.starts[id + 1] = Int32(offset)
            if !ascii, let first = others.updateValue(id, forKey: code) {
                others[code] = first
                found(id, first)
            }
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
        // Placed in catalog order within each region, so that of two equal codes the earlier is
        // placed first.
        let order = HashTableFill.order(
            of: (0..<count).lazy.filter { starts[$0 + 1] != starts[$0] }, count: indexed, hashes: hashes,
            capacity: capacity)
        for id in order.lazy.map(Int.init) {
            let key = keys[id]
            var slot = Int(truncatingIfNeeded: key.hash) & (capacity - 1)
            var placed = true
            while storage.entries[slot].idPlusOne != 0 {
                let entry = storage.entries[slot]
                let other = Int(entry.idPlusOne) - 1
                if entry.head == key.head, Int(entry.length) == key.length, storage.tails[other] == key.tail,
                    sameBytes(bytes, starts, id, other)
                {
                    found(id, other)
                    placed = false
                    break
                }
                slot = (slot + 1) & (capacity - 1)
            }
            storage.tails[id] = key.tail
            if placed {
                storage.entries[slot] = Entry(head: key.head, idPlusOne: Int32(id + 1), length: Int32(key.length))
            }
        }
        storage.longestCode = (0..<count).reduce(0) { max($0, Int(starts[$1 + 1] - starts[$1])) }
        let table = CodeTable(storage: storage, others: others)
        // A code with other characters may equal an ASCII one.
        for (code, id) in others {
            if let equal = asciiEquivalent(code), let first = table.bytesLookup(equal) { found(id, first) }
        }
        return (table, duplicate)
    }

    private init(storage: Storage, others: [String: ProductID]) {
        self.storage = storage
        self.others = others
    }

    /// Whether products `a` and `b` have the same code bytes.
    private static func sameBytes(_ bytes: UnsafePointer<UInt8>, _ starts: UnsafePointer<Int32>, _ a: Int, _ b: Int)
        -> Bool
    {
        let (startA, startB) = (Int(starts[a]), Int(starts[b]))
        let length = Int(starts[a + 1]) - startA
        guard Int(starts[b + 1]) - startB == length else { return false }
        for i in 0..<length where bytes[startA + i] != bytes[startB + i] { return false }
        return true
    }

    // MARK: Looking up strings

    /// The id of the product whose code equals `code` (as strings compare).
    func position(of code: String) -> ProductID? { position(of: code, in: bytes) }

    /// The same, with the table's addresses loaded once by the caller (``CodeLookup``).
    @inline(__always)
    func position(of code: String, in lookup: ByteLookup) -> ProductID? {
        var text = code
        if text.withUTF8(isASCII) {
            if let found = bytesLookup(code, in: lookup) { return found }
            return others.isEmpty ? nil : others[code]
        }
        if let found = others[code] { return found }
        guard let equal = Self.asciiEquivalent(code) else { return nil }
        return bytesLookup(equal, in: lookup)
    }

    /// The id of the product whose code equals the text of `utf8` (as strings compare), and
    /// whether that code has exactly those bytes: ASCII text is looked up by its bytes, without
    /// making a string (the promotions file's codes, one lookup each); other text as a string.
    func position(utf8: UnsafeBufferPointer<UInt8>) -> (id: ProductID, sameBytes: Bool)? {
        position(utf8: utf8, in: bytes)
    }

    /// The same, with the table's addresses loaded once by the caller (``CodeLookup``).
    @inline(__always)
    func position(utf8: UnsafeBufferPointer<UInt8>, in lookup: ByteLookup) -> (id: ProductID, sameBytes: Bool)? {
        guard let base = utf8.baseAddress else { return nil }
        if isASCII(utf8) {
            // ASCII text: its bytes, else a code equal to it with other characters (`;` is U+037E).
            if let found = lookup.lookup(base, utf8.count, readable: utf8.count) { return (found, true) }
            return others.isEmpty ? nil : others[String(decoding: utf8, as: UTF8.self)].map { ($0, false) }
        }
        guard let id = position(of: String(decoding: utf8, as: UTF8.self), in: lookup) else { return nil }
        let start = Int(lookup.starts[id])
        let code = UnsafeBufferPointer(start: lookup.bytes + start, count: Int(lookup.starts[id + 1]) - start)
        return (id, code.elementsEqual(utf8))
    }

    /// The id of the product whose code has exactly the UTF-8 bytes of `code`.
    private func bytesLookup(_ code: String) -> ProductID? { bytesLookup(code, in: bytes) }

    @inline(__always)
    private func bytesLookup(_ code: String, in lookup: ByteLookup) -> ProductID? {
        var text = code
        return text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return nil }
            return lookup.lookup(base, utf8.count, readable: utf8.count)
        }
    }

    /// The ASCII string equal to `text`, if there is one: each character is ASCII or equal to
    /// an ASCII character (a few symbols are, by canonical equivalence).
    private static func asciiEquivalent(_ text: String) -> String? {
        var result = ""
        for character in text {
            if character.isASCII {
                result.append(character)
            } else if let ascii = asciiCharacters.first(where: { $0 == character }) {
                result.append(ascii)
            } else {
                return nil
            }
        }
        return result
    }

    private static let asciiCharacters = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }
}

/// A ``CodeTable``'s lookups by bytes: the addresses of its memory, held while it is (the table's
/// storage kept alive with them), so that a hot loop loads none of them per code.
public struct ByteLookup: @unchecked Sendable {
    @usableFromInline let storage: CodeTable.Storage
    @usableFromInline let entries: UnsafePointer<CodeTable.Entry>
    /// All codes' bytes, back to back; product `id`'s from `starts[id]` to `starts[id + 1]`.
    @usableFromInline let bytes: UnsafePointer<UInt8>
    @usableFromInline let starts: UnsafePointer<Int32>
    /// Per product, its code's last 8 bytes (codes of more than 8), compared once the first 8 match.
    @usableFromInline let tails: UnsafePointer<UInt64>
    @usableFromInline let mask: Int
    /// The longest code's length in bytes: a longer string is no code of the catalog.
    public let longestCode: Int

    init(_ storage: CodeTable.Storage) {
        self.storage = storage
        entries = UnsafePointer(storage.entries.baseAddress!)
        bytes = UnsafePointer(storage.bytes.baseAddress!)
        starts = UnsafePointer(storage.starts.baseAddress!)
        tails = UnsafePointer(storage.tails.baseAddress!)
        mask = storage.entries.count - 1
        longestCode = storage.longestCode
    }

    /// The id of the product whose code is the `count` bytes at `code`, or nil. `readable` is how
    /// many bytes from `code` may be read (at least `count`): a code shorter than 8 bytes is loaded
    /// as one word when 8 are.
    @inlinable @inline(__always)
    public func lookup(_ code: UnsafePointer<UInt8>, _ count: Int, readable: Int) -> ProductID? {
        find(Key(code, count, readable: readable), code)
    }

    /// The id of the product whose code is the `count` bytes, fewer than 8, at the low end of `word`
    /// (the bytes above them ignored), or nil: a code the scanner found inside the word it loaded.
    @inlinable @inline(__always)
    public func lookup(word: UInt64, count: Int) -> ProductID? {
        find(Key(shortCode: word, count: count), nil)
    }

    @usableFromInline typealias Key = CodeTable.Key

    @inlinable @inline(__always)
    func find(_ key: Key, _ code: UnsafePointer<UInt8>?) -> ProductID? {
        var slot = Int(truncatingIfNeeded: key.hash) & mask
        while true {
            let entry = entries[slot]
            if entry.idPlusOne == 0 { return nil }
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
    @inlinable @inline(__always)
    func sameRest(_ id: Int, _ key: Key, _ code: UnsafePointer<UInt8>?) -> Bool {
        guard tails[id] == key.tail else { return false }
        guard key.length > 16 else { return true }
        let own = bytes + Int(starts[id])
        for i in 8..<(key.length - 8) where own[i] != code![i] { return false }
        return true
    }
}

extension CodeTable {
    /// A code's words, length and hash.
    @usableFromInline
    struct Key {
        @usableFromInline let head: UInt64
        @usableFromInline let tail: UInt64
        @usableFromInline let length: Int
        @usableFromInline let hash: UInt64

        @inlinable @inline(__always)
        init(_ code: UnsafePointer<UInt8>, _ count: Int, readable: Int) {
            if count < 8 {
                var word: UInt64
                if readable >= 8 {
                    word = Key.load8(code)
                } else {
                    word = 0
                    for i in 0..<count { word |= UInt64(code[i]) &<< (8 * i) }
                }
                self.init(shortCode: word, count: count)
                return
            }
            let head = Key.load8(code)
            let tail = Key.load8(code + count - 8)
            var h = Key.mix(head, tail, count)
            if count > 16 {
                // The middle, a word at a time (the last word overlapping the tail).
                var i = 8
                while i < count - 8 {
                    h = (h ^ Key.load8(code + i)) &* 0xFF51_AFD7_ED55_8CCD
                    h ^= h >> 29
                    i += 8
                }
            }
            self.init(head: head, tail: tail, length: count, hash: Key.finish(h))
        }

        /// A code of fewer than 8 bytes, the low `count` bytes of `word`.
        @inlinable @inline(__always)
        init(shortCode word: UInt64, count: Int) {
            let head = word & ((1 &<< (8 * UInt64(count))) &- 1)
            self.init(head: head, tail: 0, length: count, hash: Key.finish(Key.mix(head, 0, count)))
        }

        @inlinable @inline(__always)
        init(head: UInt64, tail: UInt64, length: Int, hash: UInt64) {
            (self.head, self.tail, self.length, self.hash) = (head, tail, length, hash)
        }

        /// The 8 bytes at `p`, the first the least significant.
        @inlinable @inline(__always)
        static func load8(_ p: UnsafePointer<UInt8>) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
        }

        @inlinable @inline(__always)
        static func mix(_ head: UInt64, _ tail: UInt64, _ count: Int) -> UInt64 {
            head &* 0x9E37_79B9_7F4A_7C15 ^ tail &* 0xC2B2_AE3D_27D4_EB4F ^ UInt64(truncatingIfNeeded: count)
        }

        @inlinable @inline(__always)
        static func finish(_ h: UInt64) -> UInt64 {
            var h = h ^ h >> 32
            h &*= 0xD6E8_FEB8_6659_FD93
            return h ^ h >> 32
        }
    }
}

@inline(__always)
private func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for byte in bytes where byte >= 0x80 { return false }
    return true
}

/// Looks up many codes as ``Catalog/productID(for:)`` and ``Catalog/productID(utf8:)`` do, with
/// the table's addresses loaded once rather than per code: for a promotions file's codes.
public struct CodeLookup: Sendable {
    private let table: CodeTable
    private let bytes: ByteLookup

    init(_ table: CodeTable) {
        self.table = table
        bytes = table.bytes
    }

    /// The id of the product with this code (as strings compare).
    @inline(__always)
    public func productID(for code: String) -> ProductID? { table.position(of: code, in: bytes) }

    /// The id of the product whose code equals the UTF-8 text `utf8` (as strings compare), and
    /// whether its code has exactly those bytes.
    @inline(__always)
    public func productID(utf8: UnsafeBufferPointer<UInt8>) -> (id: ProductID, sameBytes: Bool)? {
        table.position(utf8: utf8, in: bytes)
    }
}
