extension CodeSuggestions {
    /// "Did you mean" for many codes at once: the same answer as ``suggestion(for:)`` gives for each.
    ///
    /// A small catalog (up to 2,000 codes) is put in a trie once and each distinct question walks
    /// it. For a large one, the one-character deletions of the *questions* are indexed (a small
    /// table the caches hold), and each catalog code's deletions are looked up in it as the codes go
    /// by: a code and a question that share one are candidates, exactly the pairs the catalog's own
    /// index would give. Nothing the size of the catalog is built, so a million products and twenty
    /// thousand questions cost one pass of hashing.
    ///
    /// `concurrently(n, body)` runs `body(0)`…`body(n - 1)`, at once if it can: the catalog is
    /// searched in that many parts (by default one after the other).
    public static func suggestions(
        for queries: [String], codes: [String],
        concurrently: (Int, @Sendable (Int) -> Void) -> Void = { count, body in for part in 0..<count { body(part) } }
    ) -> [String?] {
        guard !queries.isEmpty else { return [] }
        guard codes.count > exhaustiveLimit else {
            // Files repeat their unknown codes: each distinct one is answered once.
            let one = CodeSuggestions(codes: codes)
            var scratch = Scratch()
            var answered: [String: String?] = [:]
            return queries.map { query in
                if let answer = answered[query] { return answer }
                let answer = one.suggestion(for: query, scratch: &scratch)
                answered[query] = answer
                return answer
            }
        }
        let products = codes
        let search = BatchSearch(queries: queries, codes: codes)
        let parts = products.count >= 100_000 ? 2 : 1
        let bounds = (0...parts).map { products.count * $0 / parts }
        // First the spellings in other letter case, the best answer of all: then the questions
        // they answer need no distance at all.
        var exact = [[Int]](repeating: [], count: parts)
        let wholes = search.wholes()
        exact.withUnsafeMutableBufferPointer { results in
            let results = PartResults(buffer: results)
            concurrently(parts) { part in
                results.buffer[part] = search.exact(in: bounds[part]..<bounds[part + 1], wholes: wholes)
            }
        }
        let found = (0..<queries.count).map { question in
            exact.lazy.map { $0[question] }.first { $0 >= 0 } ?? -1
        }
        let open = queries.indices.filter { found[$0] < 0 }
        var near = [[(position: Int, distance: Int)]](repeating: [], count: parts)
        if !open.isEmpty {
            let index = search.index(of: open)
            near.withUnsafeMutableBufferPointer { results in
                let results = PartResults(buffer: results)
                concurrently(parts) { part in
                    results.buffer[part] = search.nearest(in: bounds[part]..<bounds[part + 1], index: index)
                }
            }
        }
        return queries.indices.map { question in
            if found[question] >= 0 { return codes[found[question]] }
            // The nearest, the earlier on a tie: parts are in catalog order.
            var best = (position: -1, distance: Int.max)
            for part in near where part[question].distance < best.distance { best = part[question] }
            return best.position >= 0 ? codes[best.position] : nil
        }
    }
}

/// Where each part of a search leaves its result: parts write their own element only.
private struct PartResults<Result>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Result>
}

/// The questions of one batch, ready to be compared with the catalog's codes, which are laid out
/// upper-cased back to back: the passes over them read plain bytes (and several threads can).
private struct BatchSearch: Sendable {
    /// Upper-cased, and their limits, whether they are ASCII, and their scalars when not.
    let questions: [[UInt8]]
    let limits: [Int]
    let ascii: [Bool]
    let scalars: [[Unicode.Scalar]]
    /// Every catalog code upper-cased, `codeBytes[codeStarts[i]..<codeStarts[i + 1]]`.
    let codeBytes: [UInt8]
    let codeStarts: [Int]

    /// The longest code, in bytes.
    let longest: Int

    init(queries: [String], codes: [String]) {
        questions = queries.map { Array($0.utf8).map(CodeSuggestions.upper) }
        limits = queries.map(CodeSuggestions.limit)
        ascii = questions.map { $0.allSatisfy { $0 < 0x80 } }
        scalars = questions.map { question in
            question.allSatisfy { $0 < 0x80 } ? [] : Array(String(decoding: question, as: UTF8.self).unicodeScalars)
        }
        var codeBytes: [UInt8] = []
        var codeStarts = [0]
        codeStarts.reserveCapacity(codes.count + 1)
        var longest = 0
        for code in codes {
            var code = code
            longest = max(longest, code.utf8.count)
            code.withUTF8 { utf8 in
                for byte in utf8 { codeBytes.append(CodeSuggestions.upper(byte)) }
            }
            codeStarts.append(codeBytes.count)
        }
        self.codeBytes = codeBytes
        self.codeStarts = codeStarts
        self.longest = longest
    }

    /// Calls `body` with each code in `range`, upper-cased, and its position.
    private func forEachCode(in range: Range<Int>, _ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        codeBytes.withUnsafeBufferPointer { bytes in
            codeStarts.withUnsafeBufferPointer { starts in
                for position in range {
                    body(position, UnsafeBufferPointer(rebasing: bytes[starts[position]..<starts[position + 1]]))
                }
            }
        }
    }

    /// Per question, the first product in `range` whose code equals it but for letter case, or -1.
    func exact(in range: Range<Int>, wholes: DeletionIndex) -> [Int] {
        var exact = [Int](repeating: -1, count: questions.count)
        forEachCode(in: range) { position, code in
            wholes.forEach(tagged: CodeSuggestions.wholeTag(code)) { question in
                if exact[question] < 0, questions[question].elementsEqual(code) { exact[question] = position }
            }
        }
        return exact
    }

    /// The questions by their whole tags only.
    func wholes() -> DeletionIndex {
        var tags: [UInt64] = []
        for (number, question) in questions.enumerated() {
            tags.append(UInt64(question.withUnsafeBufferPointer(CodeSuggestions.wholeTag)) << 32 | UInt64(number))
        }
        return DeletionIndex(unsorted: tags)
    }

    /// The questions at `numbers`, by their variants.
    func index(of numbers: [Int]) -> DeletionIndex {
        var tags: [UInt64] = []
        for number in numbers {
            questions[number].withUnsafeBufferPointer { bytes in
                CodeSuggestions.forEachVariant(bytes) { tag in tags.append(UInt64(tag) << 32 | UInt64(number)) }
            }
        }
        return DeletionIndex(unsorted: tags)
    }

    /// Per question in `index`, the nearest product in `range` within its limit, or -1.
    func nearest(in range: Range<Int>, index: DeletionIndex) -> [(position: Int, distance: Int)] {
        var best = [(position: Int, distance: Int)](repeating: (-1, .max), count: questions.count)
        var lastSeen = [Int](repeating: -1, count: questions.count)
        var rows = [Int32](repeating: 0, count: 3 * (longest + 1))
        forEachCode(in: range) { position, bytes in
            CodeSuggestions.forEachVariant(bytes) { tag in
                index.forEach(tagged: tag) { question in
                    guard lastSeen[question] != position else { return }
                    lastSeen[question] = position
                    let distance = rows.withUnsafeMutableBufferPointer { rows in
                        CodeSuggestions.distance(
                            questions[question], ascii: ascii[question], scalars: scalars[question], to: bytes,
                            limit: limits[question], rows: rows)
                    }
                    if distance >= 0, distance <= limits[question], distance < best[question].distance {
                        best[question] = (position, distance)
                    }
                }
            }
        }
        return best
    }
}
