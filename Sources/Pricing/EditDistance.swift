/// The optimal string alignment distance between `a` and `b` (insertions, deletions, substitutions
/// and transpositions of neighbours, each costing 1), for "did you mean": giving up, and returning
/// `limit + 1`, as soon as it must exceed `limit`.
public func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element], limit: Int = .max - 1) -> Int {
    if abs(a.count - b.count) > limit { return limit + 1 }
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var before = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        var rowBest = i
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                current[j] = min(current[j], before[j - 2] + 1)
            }
            rowBest = min(rowBest, current[j])
        }
        if rowBest > limit { return limit + 1 }
        (before, previous, current) = (previous, current, before)
    }
    return previous[b.count]
}
