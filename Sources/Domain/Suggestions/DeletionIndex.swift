/// Which strings have a given variant tag (``CodeSuggestions/forEachVariant(_:_:)``: a string whole,
/// or with one character deleted): `tag << 32 | number` entries sorted by tag, a directory on the
/// tags' top bits, and in front of it a bit per value of those bits, which the caches keep, so
/// that a tag no string has costs one read.
struct DeletionIndex: Sendable {
    private let entries: [UInt64]
    private let directory: [Int32]
    private let shift: UInt32
    private let present: [UInt64]
    private static let presentBits = 21

    /// The index of `entries` (`tag << 32 | number`, numbers ascending for equal tags).
    init(unsorted entries: [UInt64]) {
        var entries = entries
        // A radix sort on the tag (three passes of 11 bits: each pass reads in order and writes to
        // 2,048 places, which the caches follow); stable, so numbers stay ascending within a tag.
        var scratch = [UInt64](repeating: 0, count: entries.count)
        var counts = [Int](repeating: 0, count: 2_049)
        for pass in 0..<3 {
            let shift = UInt64(32 + pass * 11)
            entries.withUnsafeBufferPointer { source in
                scratch.withUnsafeMutableBufferPointer { target in
                    counts.withUnsafeMutableBufferPointer { counts in
                        counts.update(repeating: 0)
                        for entry in source { counts[Int((entry >> shift) & 0x7FF) + 1] += 1 }
                        for digit in 1..<counts.count { counts[digit] += counts[digit - 1] }
                        for entry in source {
                            let digit = Int((entry >> shift) & 0x7FF)
                            target[counts[digit]] = entry
                            counts[digit] += 1
                        }
                    }
                }
            }
            swap(&entries, &scratch)
        }
        // About one entry per directory slot, at most 2²⁰ slots.
        var bits = 1
        while bits < 20, 1 << bits < entries.count { bits += 1 }
        let shift = UInt32(32 - bits)
        var directory = [Int32](repeating: Int32(entries.count), count: (1 << bits) + 1)
        for (offset, entry) in entries.enumerated().reversed() {
            directory[Int(UInt32(truncatingIfNeeded: entry >> 32) >> shift)] = Int32(offset)
        }
        for slot in stride(from: directory.count - 2, through: 0, by: -1) where directory[slot] > directory[slot + 1] {
            directory[slot] = directory[slot + 1]
        }
        var present = [UInt64](repeating: 0, count: 1 << (Self.presentBits - 6))
        for entry in entries {
            let bit = Int(UInt32(truncatingIfNeeded: entry >> 32) >> (32 - Self.presentBits))
            present[bit >> 6] |= 1 << UInt64(bit & 63)
        }
        self.entries = entries
        self.directory = directory
        self.shift = shift
        self.present = present
    }

    /// The index of strings given back to back (string i is `bytes[starts[i]..<starts[i + 1]]`),
    /// by each one's variant tags, as `variants` gives them.
    init(
        strings bytes: [UInt8], starts: [Int32],
        variants: (UnsafeBufferPointer<UInt8>, (UInt32) -> Void) -> Void = CodeSuggestions.forEachVariant
    ) {
        var entries: [UInt64] = []
        entries.reserveCapacity(bytes.count + starts.count)
        bytes.withUnsafeBufferPointer { all in
            for number in 0..<(starts.count - 1) {
                let string = UnsafeBufferPointer(rebasing: all[Int(starts[number])..<Int(starts[number + 1])])
                variants(string) { tag in entries.append(UInt64(tag) << 32 | UInt64(number)) }
            }
        }
        self.init(unsorted: entries)
    }

    /// Calls `body` with the number of each string that has a variant tagged `tag`, ascending.
    func forEach(tagged tag: UInt32, _ body: (Int) -> Void) {
        let bit = Int(tag >> (32 - Self.presentBits))
        guard present[bit >> 6] & (1 << UInt64(bit & 63)) != 0 else { return }
        let slot = Int(tag >> shift)
        var offset = Int(directory[slot])
        let end = Int(directory[slot + 1])
        while offset < end {
            let entry = entries[offset]
            let entryTag = UInt32(truncatingIfNeeded: entry >> 32)
            if entryTag > tag { return }
            if entryTag == tag { body(Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)) }
            offset += 1
        }
    }
}
