/// Building an open-addressing table of a million keys without a cache miss per key: the keys are
/// placed in the order of their home slots, region by region, so the table fills front to back.
public enum HashTableFill {
    /// Slots for `count` keys: a power of two, at least twice the keys.
    @inlinable
    public static func capacity(for count: Int) -> Int {
        var capacity = 16
        while capacity < count * 2 { capacity <<= 1 }
        return capacity
    }

    /// The keys at `positions` (whose hashes are `hashes[position]`; `count` of them) in the order
    /// to place them into a table of `capacity` slots: by region of 1,024 home slots, each region's
    /// keys in the order `positions` gives them (a counting sort, stable). Inlinable, so that each
    /// caller's sequence is specialized (generic, it would allocate per key).
    @inlinable
    public static func order(
        of positions: some Sequence<Int>, count: Int, hashes: [UInt64], capacity: Int
    ) -> [Int32] {
        let mask = capacity - 1
        let regionShift = max(0, capacity.trailingZeroBitCount - 10)
        var regionStarts = [Int32](repeating: 0, count: (capacity >> regionShift) + 1)
        for position in positions {
            regionStarts[(Int(truncatingIfNeeded: hashes[position]) & mask) >> regionShift + 1] += 1
        }
        for region in 1..<regionStarts.count { regionStarts[region] += regionStarts[region - 1] }
        var order = [Int32](repeating: 0, count: count)
        for position in positions {
            let region = (Int(truncatingIfNeeded: hashes[position]) & mask) >> regionShift
            order[Int(regionStarts[region])] = Int32(position)
            regionStarts[region] += 1
        }
        return order
    }
}
