/// What each promotion did on one side of a diff, by the promotion's position in its file: a table
/// of open addressing keyed by the position, updated for every promotion of every receipt priced.
/// A `Dictionary` hashed each key with SipHash and a receipt's promotions went through a dictionary
/// of their own to count the cart once; here a position finds its entry with one multiplication,
/// and an entry remembers the last cart it counted.
struct EffectTable: Sendable {
    private struct Entry: Sendable {
        /// The promotion's position, or -1 for an empty entry.
        var key: Int32 = -1
        var carts = 0
        var discount: Int128 = 0
        /// The tally's number of the last cart counted here (see ``add(_:discount:cart:)``).
        var lastCart = -1
    }

    private var entries = [Entry](repeating: Entry(), count: 16)
    private(set) var count = 0

    init() {}

    /// Adds `discount` to promotion `key`'s, and counts cart number `cart` once however many of its
    /// lines the promotion used.
    @inline(__always)
    mutating func add(_ key: Int, discount: Int64, cart: Int) {
        let slot = find(key)
        entries.withUnsafeMutableBufferPointer { entries in
            if entries[slot].lastCart != cart {
                entries[slot].lastCart = cart
                entries[slot].carts += 1
            }
            entries[slot].discount += Int128(discount)
        }
    }

    /// Adds another table's figures to this one's.
    mutating func merge(_ other: EffectTable) {
        for entry in other.entries where entry.key >= 0 {
            let slot = find(Int(entry.key))
            entries[slot].carts += entry.carts
            entries[slot].discount += entry.discount
        }
    }

    /// Promotion `key`'s figures, nil when it did nothing.
    subscript(key: Int) -> DiffTally.Effect? {
        guard let slot = lookUp(key) else { return nil }
        return DiffTally.Effect(carts: entries[slot].carts, discount: entries[slot].discount)
    }

    /// Every promotion's figures.
    var dictionary: [Int: DiffTally.Effect] {
        var result: [Int: DiffTally.Effect] = [:]
        for entry in entries where entry.key >= 0 {
            result[Int(entry.key)] = DiffTally.Effect(carts: entry.carts, discount: entry.discount)
        }
        return result
    }

    /// The slot of `key`, made when it is not there yet.
    @inline(__always)
    private mutating func find(_ key: Int) -> Int {
        var slot = probe(key)
        guard entries[slot].key < 0 else { return slot }
        if 2 * (count + 1) > entries.count {
            grow()
            slot = probe(key)
        }
        count += 1
        // Positions in a promotions file: far below 2³¹ (a promotion takes tens of bytes).
        entries[slot].key = Int32(key)
        return slot
    }

    @inline(__always)
    private func lookUp(_ key: Int) -> Int? {
        let slot = probe(key)
        return entries[slot].key >= 0 ? slot : nil
    }

    /// The slot holding `key`, else the empty slot where it would go (the table is never full).
    @inline(__always)
    private func probe(_ key: Int) -> Int {
        entries.withUnsafeBufferPointer { entries -> Int in
            let key32 = Int32(truncatingIfNeeded: key)
            var slot = Self.start(key, capacity: entries.count)
            while entries[slot].key != key32, entries[slot].key >= 0 { slot = (slot + 1) & (entries.count - 1) }
            return slot
        }
    }

    /// Where `key`'s search starts: the high bits of the key times 2⁶⁴/φ (positions that follow one
    /// another spread over the table).
    @inline(__always)
    private static func start(_ key: Int, capacity: Int) -> Int {
        let hash = UInt64(truncatingIfNeeded: key) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: hash >> UInt64(64 - capacity.trailingZeroBitCount))
    }

    @inline(never)
    private mutating func grow() {
        let old = entries
        entries = [Entry](repeating: Entry(), count: 2 * old.count)
        for entry in old where entry.key >= 0 { entries[probe(Int(entry.key))] = entry }
    }
}
