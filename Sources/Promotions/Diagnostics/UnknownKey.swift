import PlistReader
import Pricing

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
        let distance = editDistance(
            Array(lowered.unicodeScalars), Array(candidate.lowercased().unicodeScalars), limit: limit)
        if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
    }
    return best?.candidate
}
