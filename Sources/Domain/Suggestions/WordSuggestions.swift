/// The candidate closest to `word` by edit distance, when close enough to be a likely typo: a case
/// difference (in any script), or at most one edit per three letters (at least one, at most three).
/// On a tie, the candidate closer as written (letter case counted: `Cabif` suggests `Cabify` before
/// `cabify`), then the first by its bytes: the same answer whatever order the candidates come in
/// (a catalog's brands come from a hash table). For the short lists words are checked against (the
/// keys of a promotion, a catalog's brands): each is compared, allocating per candidate only its
/// lower-cased spelling.
public func closestMatch(to word: String, in candidates: [String]) -> String? {
    var ranking = WordRanking(word)
    for candidate in candidates { ranking.consider(candidate, lowered: candidate.lowercased()) }
    return ranking.best
}

/// The closest of the candidates shown to it, by ``closestMatch(to:in:)``'s rules: a candidate's
/// distance from the word once both are lower-cased, within the word's limit, then its distance as
/// written, then its bytes.
struct WordRanking {
    let loweredWord: String
    let scalars: [Unicode.Scalar]
    let written: [Unicode.Scalar]
    let limit: Int
    private(set) var best: String?
    private var bestDistance = 0
    private var bestAsWritten = 0

    init(_ word: String) {
        loweredWord = word.lowercased()
        scalars = Array(loweredWord.unicodeScalars)
        written = Array(word.unicodeScalars)
        limit = min(3, max(1, word.count / 3))
    }

    /// Weighs `candidate`, whose lower-cased spelling is `lowered`.
    mutating func consider(_ candidate: String, lowered: String) {
        // Its distance after lower-casing (0: it differs in letter case only), and as written.
        let distance: Int
        if lowered == loweredWord {
            distance = 0
        } else {
            distance = editDistance(scalars, Array(lowered.unicodeScalars), limit: limit)
            guard distance <= limit else { return }
        }
        if best != nil, distance > bestDistance { return }
        let asWritten = editDistance(written, Array(candidate.unicodeScalars))
        if let current = best, distance == bestDistance {
            guard
                asWritten < bestAsWritten
                    || (asWritten == bestAsWritten && candidate.utf8.lexicographicallyPrecedes(current.utf8))
            else { return }
        }
        (best, bestDistance, bestAsWritten) = (candidate, distance, asWritten)
    }
}

/// The shortest of the candidates shown to it that begin with the word, letter case aside, then
/// the first by its bytes.
struct CompletionRanking {
    let loweredWord: String
    private(set) var best: String?

    init(_ word: String) { loweredWord = word.lowercased() }

    mutating func consider(_ candidate: String, lowered: String) {
        guard lowered.hasPrefix(loweredWord) else { return }
        if let current = best,
            candidate.utf8.count > current.utf8.count
                || (candidate.utf8.count == current.utf8.count
                    && !candidate.utf8.lexicographicallyPrecedes(current.utf8))
        {
            return
        }
        best = candidate
    }
}

/// What `word` most likely means among `candidates`: the closest by ``closestMatch(to:in:)``, else,
/// for a word cut short, a candidate that begins with it, letter case aside (`Clothing > Shi`
/// suggests `Clothing > Shirts`): the shortest, then the first by its bytes, so the answer does not
/// depend on the candidates' order either.
public func closestMatchOrCompletion(of word: String, in candidates: [String]) -> String? {
    if let match = closestMatch(to: word, in: candidates) { return match }
    var completion = CompletionRanking(word)
    for candidate in candidates { completion.consider(candidate, lowered: candidate.lowercased()) }
    return completion.best
}
