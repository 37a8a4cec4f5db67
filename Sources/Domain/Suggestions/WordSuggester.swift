/// "Did you mean" among many values, asked about many times: a catalog's brands, tags or category
/// paths against a promotions file's unknown values (docs/selectors.md). It answers as
/// ``closestMatchOrCompletion(of:in:)`` does, with each value lower-cased once, not once per
/// question.
///
/// A list of up to ``exhaustiveLimit`` values is searched whole: the same answers exactly. A larger
/// one is indexed by each lower-cased value's one-byte deletions, as ``CodeSuggestions`` indexes a
/// large catalog's codes, so a question costs lookups, not the list's length: every value within one
/// edit of the word is found, and most within two. A word cut short is looked up in the values
/// sorted. (Each question compared the word with every value: 1,000 unknown categories against the
/// 350,000 paths of a 200,000-product catalog took six minutes.)
public final class WordSuggester: Sendable {
    private let values: [String]
    private let lowered: [String]
    /// Large lists: each value's lower-cased bytes, back to back (`starts[i]..<starts[i + 1]`).
    private let bytes: [UInt8]
    private let starts: [Int32]
    /// Large lists: each value by its variants (whole, and with one byte deleted).
    private let index: DeletionIndex?
    /// Large lists: the values' positions, in the order of their lower-cased bytes.
    private let sorted: [Int32]
    /// Lists up to this size are searched whole.
    public static let exhaustiveLimit = 2_000

    public init(_ values: [String]) {
        self.values = values
        lowered = values.map { $0.lowercased() }
        guard values.count > Self.exhaustiveLimit else {
            (bytes, starts, index, sorted) = ([], [], nil, [])
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
        (self.bytes, self.starts, index, sorted) = (
            bytes, starts, DeletionIndex(strings: bytes, starts: starts), byBytes
        )
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
            CodeSuggestions.forEachVariant(query) { tag in
                index.forEach(tagged: tag) { position in
                    if seen.insert(position).inserted {
                        ranking.consider(values[position], lowered: lowered[position])
                    }
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
            while low < sorted.count, value(low).starts(with: query) {
                let position = Int(sorted[low])
                completion.consider(values[position], lowered: lowered[position])
                low += 1
            }
        }
        return completion.best
    }
}
