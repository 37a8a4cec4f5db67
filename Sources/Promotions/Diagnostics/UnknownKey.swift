import PlistReader

extension Diagnostic {
    static func unknownKey(_ key: String, known: [String], at location: SourceLocation, promotion: String?)
        -> Diagnostic
    {
        let hint =
            closestMatch(to: key, in: known).map { "; did you mean `\($0)`?" } ?? "; known keys: "
            + known.joined(separator: ", ")
        return Diagnostic(
            .unknownKey, "unknown key `\(key.escapedForDisplay)` is ignored\(hint)", at: location, promotion: promotion)
    }
}

/// The candidate closest to `word` by edit distance, when close enough to be a likely typo: a case
/// difference, or at most one edit per three letters (at least one, at most three).
func closestMatch(to word: String, in candidates: [String]) -> String? {
    let lowered = word.lowercased()
    if let exact = candidates.first(where: { $0.lowercased() == lowered }) { return exact }
    let limit = min(3, max(1, word.count / 3))
    var best: (candidate: String, distance: Int)?
    for candidate in candidates {
        let distance = editDistance(Array(lowered.unicodeScalars), Array(candidate.lowercased().unicodeScalars))
        if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.candidate
}

/// Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions.
func editDistance<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                current[j] = min(current[j], before[j - 2] + 1)
            }
        }
        (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
}
