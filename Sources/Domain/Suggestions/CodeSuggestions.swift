/// "Did you mean" for product codes (and command names), at a cost per question that does not grow
/// with the catalog (docs/diagnostics.md).
///
/// A code that differs only in letter case is suggested first. Otherwise the closest code within a
/// typo's distance (optimal string alignment: insertions, deletions, substitutions, adjacent
/// transpositions; one edit per three characters, at least one, at most three) wins, the earlier in
/// the catalog on a tie. In a catalog of up to 2,000 codes that is the nearest code of all, found in a
/// trie of the codes by walking only the branches that stay within the distance. A larger one is
/// indexed by every code's one-character deletions (hashed, in one sorted array): two codes that
/// share such a deletion, or one that is a deletion of the other, are one substitution,
/// transposition, insertion or deletion apart — every single typo, and most double ones, found by
/// lookups alone.
public final class CodeSuggestions: Sendable {
    private let codes: [String]
    /// Small catalogs: each code's upper-cased spelling, first occurrence.
    private let byUppercase: [String: Int]
    /// Small catalogs: the ASCII codes in a trie, and the others (compared by Unicode scalars).
    private let trie: CodeTrie?
    private let otherCodes: [Int]
    /// Large catalogs: every code upper-cased, back to back (`starts[i]..<starts[i + 1]`).
    private let upperBytes: [UInt8]
    private let starts: [Int32]
    /// Large catalogs: each code by its variants (whole and with one character deleted).
    private let index: DeletionIndex?
    /// The longest code, in bytes.
    private let longest: Int
    /// Catalogs up to this size are searched for the nearest code of all.
    static let exhaustiveLimit = 2_000

    public init(codes: [String]) {
        self.codes = codes
        longest = codes.reduce(0) { max($0, $1.utf8.count) }
        guard codes.count > Self.exhaustiveLimit else {
            var byUppercase: [String: Int] = [:]
            var ascii: [(bytes: [UInt8], position: Int)] = []
            var others: [Int] = []
            for (position, code) in codes.enumerated() {
                let upper = Array(code.utf8).map(Self.upper)
                if byUppercase[String(decoding: upper, as: UTF8.self)] == nil {
                    byUppercase[String(decoding: upper, as: UTF8.self)] = position
                }
                if upper.allSatisfy({ $0 < 0x80 }) { ascii.append((upper, position)) } else { others.append(position) }
            }
            self.byUppercase = byUppercase
            trie = CodeTrie(ascii)
            otherCodes = others
            upperBytes = []
            starts = []
            index = nil
            return
        }
        byUppercase = [:]
        trie = nil
        otherCodes = []
        var upperBytes: [UInt8] = []
        var starts: [Int32] = [0]
        starts.reserveCapacity(codes.count + 1)
        for code in codes {
            var code = code
            code.withUTF8 { utf8 in
                for byte in utf8 { upperBytes.append(Self.upper(byte)) }
            }
            starts.append(Int32(upperBytes.count))
        }
        self.upperBytes = upperBytes
        self.starts = starts
        index = DeletionIndex(strings: upperBytes, starts: starts)
    }

    /// Room a search lends its distances: rows for a query of `length` bytes.
    struct Scratch {
        var rows: [Int32] = []
        var stack: [(node: Int32, edge: Int32)] = []

        mutating func reserve(rows count: Int, stack depth: Int) {
            if rows.count < count { rows = [Int32](repeating: 0, count: count) }
            if stack.count < depth { stack = [(node: Int32, edge: Int32)](repeating: (0, 0), count: depth) }
        }
    }

    /// For a cart builder: suggestions among a catalog's codes, made when first asked for.
    public static let suggester: @Sendable ([String]) -> @Sendable (String) -> String? = { codes in
        let suggestions = CodeSuggestions(codes: codes)
        return { suggestions.suggestion(for: $0) }
    }

    /// The code the shopper or the file most likely meant, or nil.
    public func suggestion(for code: String) -> String? {
        var scratch = Scratch()
        return suggestion(for: code, scratch: &scratch)
    }

    /// As ``suggestion(for:)``, in rows that questions one after another share.
    func suggestion(for code: String, scratch: inout Scratch) -> String? {
        let query = Array(code.utf8).map(Self.upper)
        let limit = Self.limit(code)
        guard let index else {
            if let exact = byUppercase[String(decoding: query, as: UTF8.self)] { return codes[exact] }
            let ascii = query.allSatisfy { $0 < 0x80 }
            guard ascii, let trie else { return nearest(to: query, limit: limit, among: codes.indices) }
            scratch.reserve(rows: (trie.depth + 1) * (query.count + 1), stack: trie.depth + 1)
            var best = query.withUnsafeBufferPointer { query in
                scratch.rows.withUnsafeMutableBufferPointer { rows in
                    scratch.stack.withUnsafeMutableBufferPointer { stack in
                        trie.nearest(to: query, limit: limit, rows: rows.baseAddress!, stack: stack.baseAddress!)
                    }
                }
            }
            // Codes that are not ASCII are compared by Unicode scalars, as a question that is not is.
            if !otherCodes.isEmpty, let other = nearestCandidate(to: query, limit: limit, among: otherCodes),
                best.map({ (other.distance, other.position) < ($0.distance, $0.position) }) ?? true
            {
                best = other
            }
            return best.map { codes[$0.position] }
        }
        var candidates: [Int] = []
        var exact: Int?
        query.withUnsafeBufferPointer { query in
            var first = true
            Self.forEachVariant(query) { tag in
                let whole = first
                first = false
                index.forEach(tagged: tag) { position in
                    if whole, upper(position).elementsEqual(query) {
                        exact = min(exact ?? position, position)
                    } else if !candidates.contains(position) {
                        candidates.append(position)
                    }
                }
            }
        }
        // A spelling in other letter case is the best suggestion of all.
        if let exact { return codes[exact] }
        return nearest(to: query, limit: limit, among: candidates)
    }

    /// Edits allowed for a code: one per three characters, at least one, at most three.
    static func limit(_ code: String) -> Int { min(3, max(1, code.count / 3)) }

    /// The candidate nearest to `query` within `limit` edits, the earlier on a tie; a candidate
    /// that equals it in other letter case counts as nearest of all.
    private func nearest(to query: [UInt8], limit: Int, among candidates: some Sequence<Int>) -> String? {
        nearestCandidate(to: query, limit: limit, among: candidates).map { codes[$0.position] }
    }

    private func nearestCandidate(to query: [UInt8], limit: Int, among candidates: some Sequence<Int>) -> (
        position: Int, distance: Int
    )? {
        let ascii = query.allSatisfy { $0 < 0x80 }
        let scalars = ascii ? [] : Array(String(decoding: query, as: UTF8.self).unicodeScalars)
        var rows = [Int32](repeating: 0, count: 3 * (longest + 1))
        var best: (position: Int, distance: Int)?
        for position in candidates {
            let distance: Int
            if index == nil {
                let candidate = Array(codes[position].utf8).map(Self.upper)
                distance = Self.distance(query, ascii: ascii, scalars: scalars, to: candidate, limit: limit)
            } else {
                distance = upperBytes.withUnsafeBufferPointer { all in
                    let candidate = UnsafeBufferPointer(
                        rebasing: all[Int(starts[position])..<Int(starts[position + 1])])
                    return rows.withUnsafeMutableBufferPointer { rows in
                        Self.distance(query, ascii: ascii, scalars: scalars, to: candidate, limit: limit, rows: rows)
                    }
                }
            }
            guard distance <= limit else { continue }
            if let current = best, (current.distance, current.position) <= (distance, position) { continue }
            best = (position, distance)
        }
        return best
    }

    /// The distance between upper-cased codes (-1 when equal), by bytes when both are ASCII, else
    /// by Unicode scalars (`scalars`: the query's, when it is not ASCII).
    static func distance(
        _ query: [UInt8], ascii: Bool, scalars: [Unicode.Scalar], to candidate: [UInt8], limit: Int
    ) -> Int {
        if candidate == query { return -1 }
        if ascii, candidate.allSatisfy({ $0 < 0x80 }) { return editDistance(query, candidate, limit: limit) }
        let other = Array(String(decoding: candidate, as: UTF8.self).unicodeScalars)
        return editDistance(ascii ? query.map { Unicode.Scalar($0) } : scalars, other, limit: limit)
    }

    /// As above, for a candidate in place: between ASCII codes in `rows` (at least 3 × (candidate's
    /// length + 1)), without allocating.
    static func distance(
        _ query: [UInt8], ascii: Bool, scalars: [Unicode.Scalar], to candidate: UnsafeBufferPointer<UInt8>,
        limit: Int, rows: UnsafeMutableBufferPointer<Int32>
    ) -> Int {
        if candidate.elementsEqual(query) { return -1 }
        if ascii, candidate.allSatisfy({ $0 < 0x80 }) {
            return query.withUnsafeBufferPointer { query in
                boundedDistance(query, candidate, limit: limit, rows: rows.baseAddress!)
            }
        }
        return distance(query, ascii: ascii, scalars: scalars, to: Array(candidate), limit: limit)
    }

    /// A large catalog's code at `position`, upper-cased.
    private func upper(_ position: Int) -> ArraySlice<UInt8> {
        upperBytes[Int(starts[position])..<Int(starts[position + 1])]
    }

    /// The tags of a code and of each of its one-character deletions, the code's own first: the
    /// high half of an FNV-1a hash, seeded by the length. Prefix hashes are kept so each deletion
    /// costs the bytes after it.
    static func forEachVariant(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt32) -> Void) {
        func finish(_ h: UInt64) -> UInt32 {
            var h = (h ^ (h >> 33)) &* 0xFF51_AFD7_ED55_8CCD
            h = (h ^ (h >> 33)) &* 0xC4CE_B9FE_1A85_EC53
            return UInt32(truncatingIfNeeded: (h ^ (h >> 33)) >> 32)
        }
        let count = bytes.count
        body(wholeTag(bytes))
        guard count > 0 else { return }
        let shorter = 0xCBF2_9CE4_8422_2325 ^ UInt64(count - 1)
        var prefix = shorter
        for skip in 0..<count {
            var h = prefix
            for i in (skip + 1)..<count { h = (h ^ UInt64(bytes[i])) &* 0x0000_0100_0000_01B3 }
            body(finish(h))
            prefix = (prefix ^ UInt64(bytes[skip])) &* 0x0000_0100_0000_01B3
        }
    }

    /// The tag of the code itself, the first of ``forEachVariant(_:_:)``'s.
    static func wholeTag(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var h = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        h = (h ^ (h >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        h = (h ^ (h >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        return UInt32(truncatingIfNeeded: (h ^ (h >> 33)) >> 32)
    }

    @inline(__always)
    static func upper(_ byte: UInt8) -> UInt8 { byte >= 97 && byte <= 122 ? byte - 32 : byte }

    static func uppercased(_ text: String) -> String {
        String(decoding: text.utf8.map { $0 >= 97 && $0 <= 122 ? $0 - 32 : $0 }, as: UTF8.self)
    }
}
