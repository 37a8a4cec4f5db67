import Pricing

/// Numbers the distinct instants it is given, in the order first seen: the shadowed check's
/// activation windows, a large file's hundreds of thousands of `start` and `end` dates, of which
/// files use few distinct ones. An open-addressing table with a multiplicative hash of the
/// instant's two fields: Swift's dictionary hashes each with SipHash, several times longer.
struct InstantNumbers {
    /// The distinct instants, by number.
    private(set) var instants: [Instant] = []
    /// Per slot: the number of the instant there, or -1.
    private var slots = [Int32](repeating: -1, count: 64)
    /// log2 of the slots' count.
    private var bits = 6

    /// The number of `instant`: that of an equal instant seen before, else the next.
    mutating func number(of instant: Instant) -> Int32 {
        let mask = slots.count - 1
        var slot = Self.home(of: instant, bits: bits)
        while slots[slot] >= 0 {
            let number = slots[slot]
            if instants[Int(number)] == instant { return number }
            slot = (slot + 1) & mask
        }
        let number = Int32(instants.count)
        instants.append(instant)
        slots[slot] = number
        if instants.count * 2 > slots.count { grow() }
        return number
    }

    /// The slot an instant's probe starts at, among 2^`bits`: the high bits of its fields mixed
    /// by a multiplication with an odd constant (Fibonacci hashing).
    private static func home(of instant: Instant, bits: Int) -> Int {
        let mixed =
            (UInt64(bitPattern: instant.seconds) ^ UInt64(UInt32(bitPattern: instant.nanoseconds)) << 34)
            &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed >> UInt64(64 - bits))
    }

    /// Twice the slots, every instant placed again.
    private mutating func grow() {
        bits += 1
        slots = [Int32](repeating: -1, count: 1 << bits)
        let mask = slots.count - 1
        for (number, instant) in instants.enumerated() {
            var slot = Self.home(of: instant, bits: bits)
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number)
        }
    }
}
