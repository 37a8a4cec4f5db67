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

/// The optimal string alignment distance between two byte strings when it is at most `limit`, else
/// some value above `limit`, working only on cells within `limit` of the diagonal, in rows the
/// caller lends (`rows`: at least 3 × (b.count + 1)): nothing allocated per pair.
func boundedDistance(
    _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, limit: Int, rows: UnsafeMutablePointer<Int32>
) -> Int {
    let (n, m) = (a.count, b.count)
    if abs(n - m) > limit { return limit + 1 }
    if n == 0 { return m }
    if m == 0 { return n }
    let far = Int32(limit + 1)
    let width = m + 1
    var before = rows
    var previous = rows + width
    var current = rows + 2 * width
    for j in 0...m { previous[j] = Int32(min(j, limit + 1)) }
    for i in 1...n {
        let low = max(1, i - limit)
        let high = min(m, i + limit)
        current[low - 1] = low == 1 ? Int32(min(i, limit + 1)) : far
        var best = current[low - 1]
        let x = a[i - 1]
        for j in low...high {
            let y = b[j - 1]
            var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x == y ? 0 : 1))
            if i > 1, j > 1, x == b[j - 2], a[i - 2] == y { value = min(value, before[j - 2] + 1) }
            value = min(value, far)
            current[j] = value
            best = min(best, value)
        }
        if high < m { current[high + 1] = far }
        if best > far - 1 { return limit + 1 }
        (before, previous, current) = (previous, current, before)
    }
    return Int(previous[m])
}
