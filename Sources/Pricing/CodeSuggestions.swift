/// "Did you mean" for product codes, at a cost per question that does not grow with the catalog.
///
/// A code that differs only in letter case is suggested first. Otherwise the closest code within a
/// typo's distance (optimal string alignment: insertions, deletions, substitutions, adjacent
/// transpositions; one edit per three characters, at least one, at most three) wins, the earlier in
/// the catalog on a tie. A small catalog is simply compared code by code. A large one is indexed by
/// every code's one-character deletions (hashed, in one sorted array): two codes that share such a
/// deletion, or one that is a deletion of the other, are one substitution, transposition,
/// insertion or deletion apart — every single typo, and most double ones, found by lookups alone.
public final class CodeSuggestions: Sendable {
    private let codes: [String]
    /// Small catalogs: each code's upper-cased spelling, first occurrence.
    private let byUppercase: [String: Int]
    /// Large catalogs: a chained hash table of the hashes of every code (upper-cased) and of each of
    /// its one-character deletions. `heads[h >> shift]` is the first entry of a chain, `entries[e].next`
    /// the next one (-1 ends it). Built in one pass, no sorting.
    private let heads: [Int32]
    private let entries: [(hash: UInt64, code: Int32, next: Int32)]
    private let shift: UInt64
    /// Catalogs up to this size are compared code by code.
    static let exhaustiveLimit = 2_000

    public init(codes: [String]) {
        self.codes = codes
        guard codes.count > Self.exhaustiveLimit else {
            var byUppercase: [String: Int] = [:]
            for (position, code) in codes.enumerated() where byUppercase[Self.uppercased(code)] == nil {
                byUppercase[Self.uppercased(code)] = position
            }
            self.byUppercase = byUppercase
            heads = []
            entries = []
            shift = 64
            return
        }
        byUppercase = [:]
        var bits: UInt64 = 1
        while (1 << bits) < codes.count * 16 { bits += 1 }
        shift = 64 - bits
        var heads = [Int32](repeating: -1, count: 1 << Int(bits))
        var entries: [(hash: UInt64, code: Int32, next: Int32)] = []
        entries.reserveCapacity(codes.count * 9)
        for (position, code) in codes.enumerated() {
            for hash in Self.variants(Array(code.utf8).map(Self.upper)) {
                let bucket = Int(hash >> (64 - bits))
                entries.append((hash, Int32(position), heads[bucket]))
                heads[bucket] = Int32(entries.count - 1)
            }
        }
        self.heads = heads
        self.entries = entries
    }

    /// The code the shopper or the file most likely meant, or nil.
    public func suggestion(for code: String) -> String? {
        let upperBytes = Array(code.utf8).map(Self.upper)
        let upper = String(decoding: upperBytes, as: UTF8.self)
        if heads.isEmpty, let exact = byUppercase[upper] { return codes[exact] }
        let limit = min(3, max(1, code.count / 3))
        let query = Array(upper.unicodeScalars)
        var best: (position: Int, distance: Int)?
        func consider(_ position: Int) {
            let candidate = Array(Self.uppercased(codes[position]).unicodeScalars)
            // A spelling in other letter case is the best suggestion of all: distance -1.
            let distance = candidate == query ? -1 : Self.distance(query, candidate, limit: limit)
            guard distance <= limit else { return }
            if let current = best, (current.distance, current.position) <= (distance, position) { return }
            best = (position, distance)
        }
        if heads.isEmpty {
            for position in codes.indices { consider(position) }
        } else {
            for hash in Self.variants(upperBytes) {
                var entry = heads[Int(hash >> shift)]
                while entry >= 0 {
                    if entries[Int(entry)].hash == hash { consider(Int(entries[Int(entry)].code)) }
                    entry = entries[Int(entry)].next
                }
            }
        }
        return best.map { codes[$0.position] }
    }

    @inline(__always)
    static func upper(_ byte: UInt8) -> UInt8 { byte >= 97 && byte <= 122 ? byte - 32 : byte }

    /// The hashes of a code and of each of its one-character deletions.
    static func variants(_ bytes: [UInt8]) -> [UInt64] {
        var hashes = [hash(bytes, skipping: -1)]
        for skip in bytes.indices { hashes.append(hash(bytes, skipping: skip)) }
        return hashes
    }

    /// FNV-1a over `bytes` without the one at `skipping`, seeded by the length left.
    static func hash(_ bytes: [UInt8], skipping: Int) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count - (skipping >= 0 ? 1 : 0))
        for (position, byte) in bytes.enumerated() where position != skipping {
            h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return h
    }

    static func uppercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }

    /// Optimal string alignment distance, giving up (returning limit + 1) once it must exceed `limit`.
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowBest = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
                rowBest = min(rowBest, current[j])
            }
            if rowBest > limit { return limit + 1 }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
