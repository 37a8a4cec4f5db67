/// The candidate closest to `word` by edit distance, when close enough to be a likely typo: a case
/// difference (in any script), or at most one edit per three letters (at least one, at most three),
/// the first candidate on a tie. For the short, fixed lists words are checked against (the keys of
/// a promotion, a file's root keys): each is compared, without allocating per candidate beyond its
/// lower-cased spelling.
public func closestMatch(to word: String, in candidates: [String]) -> String? {
    let lowered = word.lowercased()
    if let exact = candidates.first(where: { $0.lowercased() == lowered }) { return exact }
    let limit = min(3, max(1, word.count / 3))
    let scalars = Array(lowered.unicodeScalars)
    var other: [Unicode.Scalar] = []
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        other.removeAll(keepingCapacity: true)
        other.append(contentsOf: candidate.lowercased().unicodeScalars)
        let distance = editDistance(scalars, other, limit: limit)
        if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.candidate
}
