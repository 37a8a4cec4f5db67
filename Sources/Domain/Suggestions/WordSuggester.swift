/// "Did you mean" among many values, asked about many times: a catalog's brands, tags or category
/// paths against a promotions file's unknown values (docs/selectors.md). It answers as
/// ``closestMatchOrCompletion(of:in:)`` does, with each value lower-cased once, not once per
/// question.
///
/// A list of up to ``exhaustiveLimit`` values is searched whole: the same answers exactly. A larger
/// one is indexed by each lower-cased value's one-letter deletions (Unicode scalars), as
/// ``CodeSuggestions`` indexes a large catalog's codes, so a question costs lookups, not the list's
/// length: every value one insertion, deletion, substitution or transposition from the word is
/// found, and those two edits away that share a deletion with it (one substitution and one
/// transposition, say); a spelling only canonically equivalent (an accent written apart from its
/// letter) is not. Values longer than ``indexedScalars`` are indexed whole only (their deletions
/// would take most of the index's memory: 16 bytes a byte while it is made) and compared one by
/// one with a word long enough to be within a typo of them. A word cut short is looked up in the
/// values sorted. (Each question compared the word with every value: 1,000 unknown categories
/// against the 350,000 paths of a 200,000-product catalog took six minutes.)
public final class WordSuggester: Sendable {
    private let values: [String]
    private let lowered: [String]
    /// Large lists: each value's lower-cased bytes, back to back (`starts[i]..<starts[i + 1]`).
    private let bytes: [UInt8]
    private let starts: [Int32]
    /// Large lists: each value by its variants (whole, and, up to ``indexedScalars`` letters, with
    /// one letter deleted).
    private let index: DeletionIndex?
    /// Large lists: the values longer than ``indexedScalars`` letters, and their lengths in letters.
    private let long: [(position: Int32, scalars: Int32)]
    /// Large lists: the values' positions, in the order of their lower-cased bytes.
    private let sorted: [Int32]
    /// Large lists: each value's length in bytes, as written (completions prefer the shortest).
    private let lengths: [Int32]
    /// Lists up to this size are searched whole.
    public static let exhaustiveLimit = 2_000
    /// Large lists: values of up to this many Unicode scalars are indexed by their deletions.
    public static let indexedScalars = 48

    public init(_ values: [String]) {
        self.values = values
        lowered = values.map { $0.lowercased() }
        guard values.count > Self.exhaustiveLimit else {
            (bytes, starts, index, sorted, lengths, long) = ([], [], nil, [], [], [])
            return
        }
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        starts.reserveCapacity(values.count + 1)
        for value in lowered {
            bytes.append(contentsOf: value.utf8)
            starts.append(Int32(bytes.count))
        }
        let byBytes = bytes.withUnsafeBufferPointer { all -> [Int32] in
            func value(_ position: Int32) -> Slice<UnsafeBufferPointer<UInt8>> {
                all[Int(starts[Int(position)])..<Int(starts[Int(position) + 1])]
            }
            var positions = (0..<Int32(values.count)).map { $0 }
            positions.sort { value($0).lexicographicallyPrecedes(value($1)) }
            return positions
        }
        (self.bytes, self.starts, sorted) = (bytes, starts, byBytes)
        index = DeletionIndex(strings: bytes, starts: starts) { value, body in
            Self.forEachVariant(value, deletingUpTo: Self.indexedScalars, body)
        }
        lengths = values.map { Int32($0.utf8.count) }
        var long: [(position: Int32, scalars: Int32)] = []
        for (position, value) in lowered.enumerated() {
            let scalars = value.unicodeScalars.count
            if scalars > Self.indexedScalars { long.append((Int32(position), Int32(scalars))) }
        }
        self.long = long
    }

    /// The value `word` most likely means, or nil.
    public func suggestion(for word: String) -> String? {
        var ranking = WordRanking(word)
        guard let index else {
            for position in values.indices { ranking.consider(values[position], lowered: lowered[position]) }
            if let best = ranking.best { return best }
            var completion = CompletionRanking(word)
            for position in values.indices { completion.consider(values[position], lowered: lowered[position]) }
            return completion.best
        }
        let query = Array(ranking.loweredWord.utf8)
        var seen = Set<Int>()
        query.withUnsafeBufferPointer { query in
            // Every deletion of the word, however long: a value one letter shorter may be indexed.
            Self.forEachVariant(query, deletingUpTo: .max) { tag in
                index.forEach(tagged: tag) { position in
                    if seen.insert(position).inserted {
                        ranking.consider(values[position], lowered: lowered[position])
                    }
                }
            }
        }
        // A word within a typo of a long value is compared with each long value of about its length.
        let scalars = ranking.scalars.count
        if scalars + ranking.limit > Self.indexedScalars {
            for (position, length) in long where abs(Int(length) - scalars) <= ranking.limit {
                if seen.insert(Int(position)).inserted {
                    ranking.consider(values[Int(position)], lowered: lowered[Int(position)])
                }
            }
        }
        if let best = ranking.best { return best }
        // The values that begin with the word's bytes sit together in `sorted`, from the first not
        // before it.
        var completion = CompletionRanking(word)
        bytes.withUnsafeBufferPointer { all in
            func value(_ at: Int) -> Slice<UnsafeBufferPointer<UInt8>> {
                let position = Int(sorted[at])
                return all[Int(starts[position])..<Int(starts[position + 1])]
            }
            var (low, high) = (0, sorted.count)
            while low < high {
                let middle = (low + high) / 2
                if value(middle).lexicographicallyPrecedes(query) { low = middle + 1 } else { high = middle }
            }
            // Only a value no longer than the best so far can take its place.
            var longest = Int32.max
            while low < sorted.count, value(low).starts(with: query) {
                let position = Int(sorted[low])
                if lengths[position] <= longest {
                    completion.consider(values[position], lowered: lowered[position])
                    longest = completion.best.map { Int32($0.utf8.count) } ?? .max
                }
                low += 1
            }
        }
        return completion.best
    }

    /// The tags of a lower-cased value (UTF-8) and of each of its one-scalar deletions, the value's
    /// own first: a polynomial hash of the bytes, so that a deletion's hash comes from the hashes
    /// of what is before and after it, each once: linear in the value's length (a hash made again
    /// after every deletion took time growing with the square of it: 126-byte category paths).
    /// Equal byte strings get equal tags, whichever scalar of which value was deleted. A value of
    /// more than `deletingUpTo` scalars gives its own tag only.
    static func forEachVariant(
        _ bytes: UnsafeBufferPointer<UInt8>, deletingUpTo limit: Int, _ body: (UInt32) -> Void
    ) {
        let base: UInt64 = 0x100_0000_01B3
        func tag(_ hash: UInt64, length: Int) -> UInt32 {
            var h = hash ^ (UInt64(length) &* 0x9E37_79B9_7F4A_7C15)
            h = (h ^ (h >> 33)) &* 0xFF51_AFD7_ED55_8CCD
            h = (h ^ (h >> 33)) &* 0xC4CE_B9FE_1A85_EC53
            return UInt32(truncatingIfNeeded: (h ^ (h >> 33)) >> 32)
        }
        let count = bytes.count
        var scalars = 0
        for byte in bytes where byte & 0xC0 != 0x80 { scalars += 1 }
        guard scalars <= limit else {
            var hash: UInt64 = 0
            for byte in bytes { hash = hash &* base &+ UInt64(byte) &+ 1 }
            return body(tag(hash, length: count))
        }
        // prefix[i]: the hash of the first i bytes; power[i]: base to the i.
        var prefix = [UInt64](repeating: 0, count: count + 1)
        var power = [UInt64](repeating: 1, count: count + 1)
        for i in 0..<count {
            prefix[i + 1] = prefix[i] &* base &+ UInt64(bytes[i]) &+ 1
            power[i + 1] = power[i] &* base
        }
        body(tag(prefix[count], length: count))
        var start = 0
        while start < count {
            // The scalar at `start` ends before the next byte that does not continue it.
            var end = start + 1
            while end < count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            let after = prefix[count] &- prefix[end] &* power[count - end]
            body(tag(prefix[start] &* power[count - end] &+ after, length: count - (end - start)))
            start = end
        }
    }
}
