/// The candidate closest to `word` by edit distance, when close enough to be a likely typo: a case
/// difference (in any script), or at most one edit per three letters (at least one, at most three).
/// On a tie, the candidate closer as written (letter case counted: `Cabif` suggests `Cabify` before
/// `cabify`), then the first by its bytes: the same answer whatever order the candidates come in
/// (a catalog's brands come from a hash table). For the short lists words are checked against (the
/// keys of a promotion, a catalog's brands): each is compared, allocating per candidate only its
/// lower-cased spelling.
public func closestMatch(to word: String, in candidates: [String]) -> String? {
    let lowered = word.lowercased()
    let limit = min(3, max(1, word.count / 3))
    let scalars = Array(lowered.unicodeScalars)
    let written = Array(word.unicodeScalars)
    var other: [Unicode.Scalar] = []
    // Its distance after lower-casing (0: it differs in letter case only), and as written.
    var best: (candidate: String, distance: Int, asWritten: Int)?
    for candidate in candidates {
        let candidateLowered = candidate.lowercased()
        let distance: Int
        if candidateLowered == lowered {
            distance = 0
        } else {
            other.removeAll(keepingCapacity: true)
            other.append(contentsOf: candidateLowered.unicodeScalars)
            distance = editDistance(scalars, other, limit: limit)
            guard distance <= limit else { continue }
        }
        if let best, distance > best.distance { continue }
        let asWritten = editDistance(written, Array(candidate.unicodeScalars))
        if let best, distance == best.distance {
            guard
                asWritten < best.asWritten
                    || (asWritten == best.asWritten && candidate.utf8.lexicographicallyPrecedes(best.candidate.utf8))
            else { continue }
        }
        best = (candidate, distance, asWritten)
    }
    return best?.candidate
}

/// What `word` most likely means among `candidates`: the closest by ``closestMatch(to:in:)``, else,
/// for a word cut short, a candidate that begins with it, letter case aside (`Clothing > Shi`
/// suggests `Clothing > Shirts`): the shortest, then the first by its bytes, so the answer does not
/// depend on the candidates' order either.
public func closestMatchOrCompletion(of word: String, in candidates: [String]) -> String? {
    if let match = closestMatch(to: word, in: candidates) { return match }
    let lowered = word.lowercased()
    var best: String?
    for candidate in candidates where candidate.lowercased().hasPrefix(lowered) {
        if let current = best,
            candidate.utf8.count > current.utf8.count
                || (candidate.utf8.count == current.utf8.count
                    && !candidate.utf8.lexicographicallyPrecedes(current.utf8))
        {
            continue
        }
        best = candidate
    }
    return best
}
