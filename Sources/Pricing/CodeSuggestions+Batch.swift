extension CodeSuggestions {
    /// "Did you mean" for many codes at once: the same answer as ``suggestion(for:)`` gives for each,
    /// in one pass over the catalog instead of an index of it.
    ///
    /// The one-character deletions of the *questions* are indexed (a small table the caches hold),
    /// and each catalog code's deletions are looked up in it as the codes go by: a code and a
    /// question that share one are candidates, exactly the pairs the catalog's own index would
    /// give. Nothing the size of the catalog is built, so a million products and twenty thousand
    /// questions cost one pass of hashing.
    public static func suggestions(for queries: [String], in catalog: Catalog) -> [String?] {
        let products = catalog.products
        guard !queries.isEmpty else { return [] }
        guard products.count > exhaustiveLimit else {
            let one = CodeSuggestions(codes: products.map(\.code))
            return queries.map(one.suggestion(for:))
        }
        let questions = queries.map { Array($0.utf8).map(upper) }
        var exact = [Int](repeating: -1, count: queries.count)
        // First the spellings in other letter case, the best answer of all: then the questions
        // they answer need no distance at all.
        let wholes = VariantIndex(questions, wholeOnly: true)
        for position in products.indices {
            withUpperCased(products[position].code) { code in
                wholes.forEachQuestion(tagged: wholeTag(code)) { question in
                    if exact[question] < 0, questions[question].elementsEqual(code) { exact[question] = position }
                }
            }
        }
        let open = questions.indices.filter { exact[$0] < 0 }
        guard !open.isEmpty else { return exact.map { products[$0].code } }
        let index = VariantIndex(questions, only: open)
        var best = [(position: Int, distance: Int)](repeating: (-1, .max), count: queries.count)
        var lastSeen = [Int](repeating: -1, count: queries.count)
        let limits = queries.map(limit)
        let ascii = questions.map { $0.allSatisfy { $0 < 0x80 } }
        let scalars = questions.indices.map { i in
            ascii[i] ? [] : Array(String(decoding: questions[i], as: UTF8.self).unicodeScalars)
        }
        for position in products.indices {
            withUpperCased(products[position].code) { bytes in
                forEachVariant(bytes) { tag in
                    index.forEachQuestion(tagged: tag) { question in
                        guard lastSeen[question] != position else { return }
                        lastSeen[question] = position
                        let distance = Self.distance(
                            questions[question], ascii: ascii[question], scalars: scalars[question], to: Array(bytes),
                            limit: limits[question])
                        if distance >= 0, distance <= limits[question], distance < best[question].distance {
                            best[question] = (position, distance)
                        }
                    }
                }
            }
        }
        return queries.indices.map { i in
            if exact[i] >= 0 { return products[exact[i]].code }
            return best[i].position >= 0 ? products[best[i].position].code : nil
        }
    }
}

/// Calls `body` with `code` upper-cased (ASCII letters), on the stack when short.
private func withUpperCased<R>(_ code: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    var code = code
    return code.withUTF8 { utf8 in
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count) { buffer in
            for i in utf8.indices { buffer[i] = CodeSuggestions.upper(utf8[i]) }
            return body(UnsafeBufferPointer(buffer))
        }
    }
}

/// The variant tags of a few codes (each whole and with each one character deleted), sorted, with
/// a directory on their top bits: which questions have a given tag.
private struct VariantIndex {
    private let entries: [UInt64]
    private let directory: [Int32]
    private let shift: UInt32

    /// The questions at `only` (all by default), each whole only or with its deletions too.
    init(_ questions: [[UInt8]], only: [Int]? = nil, wholeOnly: Bool = false) {
        var entries: [UInt64] = []
        for number in only ?? Array(questions.indices) {
            questions[number].withUnsafeBufferPointer { bytes in
                if wholeOnly {
                    entries.append(UInt64(CodeSuggestions.wholeTag(bytes)) << 32 | UInt64(number))
                } else {
                    CodeSuggestions.forEachVariant(bytes) { tag in entries.append(UInt64(tag) << 32 | UInt64(number)) }
                }
            }
        }
        entries.sort()
        // About one entry per directory slot.
        var bits = 1
        while bits < 24, 1 << bits < entries.count { bits += 1 }
        let shift = UInt32(32 - bits)
        var directory = [Int32](repeating: Int32(entries.count), count: (1 << bits) + 1)
        for (offset, entry) in entries.enumerated().reversed() {
            directory[Int(UInt32(truncatingIfNeeded: entry >> 32) >> shift)] = Int32(offset)
        }
        for slot in stride(from: directory.count - 2, through: 0, by: -1) where directory[slot] > directory[slot + 1] {
            directory[slot] = directory[slot + 1]
        }
        self.entries = entries
        self.directory = directory
        self.shift = shift
    }

    func forEachQuestion(tagged tag: UInt32, _ body: (Int) -> Void) {
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
