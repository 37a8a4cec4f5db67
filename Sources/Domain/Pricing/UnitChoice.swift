/// The choice between item promotions when some work across lines (docs/pricing.md#choosing): repeatedly, the
/// application with the largest discount on the free units is applied, until none is left.
///
/// How it stays fast. Recomputing every application at every step would cost (steps × promotions ×
/// lines). Instead:
/// - a line's best line-promotion application depends only on its own free units, so it is kept per
///   line and recomputed only when a group application takes some of that line's units (a line
///   promotion takes all of them, ending the line);
/// - a group promotion's application depends only on the free units of the lines it touches, so an
///   inverted index (line → the group promotions touching it) says which ones a step invalidates;
///   only those are recomputed, each in time linear in its own lines (their orders by price are
///   sorted once per cart);
/// - every live application sits in one max-heap ordered by the tie rule; entries made stale by a
///   step are not removed but carry a version, and are dropped when they come out of the heap.
/// A step thus costs O(log h) plus the recomputation of what touches the lines it changed, instead of
/// a pass over every promotion and line.
struct UnitChoice {
    /// One candidate group promotion in this cart.
    struct Group {
        var rule: Int
        var lines: GroupApplication.Lines
        var version: UInt32 = 0
        var applied = false
    }

    /// An application waiting in the heap: a line's best line promotion (`line ≥ 0`), or a group
    /// promotion's (`group ≥ 0`), valid while its version is current.
    struct Entry: HeapOrdered {
        var discount: Int64
        var priority: Int64
        var rule: Int32
        var line: Int32
        var group: Int32
        var version: UInt32

        /// docs/pricing.md#choosing: the largest discount; ties: the higher priority, the promotion defined first,
        /// the earlier line.
        static func ranksAbove(_ a: Entry, _ b: Entry) -> Bool {
            if a.discount != b.discount { return a.discount > b.discount }
            if a.priority != b.priority { return a.priority > b.priority }
            if a.rule != b.rule { return a.rule < b.rule }
            return a.line < b.line
        }
    }

    /// What was applied, in order: the promotion, and per line the units it used and the discount
    /// attributed there.
    struct Applied {
        var rule: Int
        var discount: Int64
        var shares: [(line: Int, units: Int64, discount: Int64)]
    }

    let compiled: [CompiledRule]
    let prices: [Int64]
    var free: [Int64]
    var groups: [Group]
    /// Per line: the groups touching it.
    var groupsOfLine: [[Int32]]
    var lineVersion: [UInt32]
    var heap = PriorityQueue<Entry>()

    /// `groupRules`: the candidate group promotions (rule indices, ascending); `lineOf`: a product's
    /// line in the cart, or nil.
    init(rules: RuleSet, lines: [Cart.Line], prices: [Int64], groupRules: [Int], lineOf: (ProductID) -> Int?) {
        compiled = rules.compiled
        self.prices = prices
        free = lines.map(\.quantity)
        lineVersion = [UInt32](repeating: 0, count: lines.count)
        groupsOfLine = [[Int32]](repeating: [], count: lines.count)
        groups = []
        groups.reserveCapacity(groupRules.count)
        func descending(_ a: Int, _ b: Int) -> Bool { prices[a] != prices[b] ? prices[a] > prices[b] : a < b }
        func ascending(_ a: Int, _ b: Int) -> Bool { prices[a] != prices[b] ? prices[a] < prices[b] : a < b }
        for rule in groupRules {
            let products = rules.groups[Int(rules.compiled[rule].group)]
            let codeLines = products.codes.compactMap(lineOf)
            let rewardLines = products.rewards.map { $0.compactMap(lineOf) } ?? codeLines
            let index = Int32(groups.count)
            // Codes and rewards never share a product, so no line is listed twice.
            for line in codeLines { groupsOfLine[line].append(index) }
            if products.rewards != nil { for line in rewardLines { groupsOfLine[line].append(index) } }
            groups.append(
                Group(
                    rule: rule,
                    lines: GroupApplication.Lines(
                        byPriceDescending: codeLines.sorted(by: descending),
                        rewardsAscending: rewardLines.sorted(by: ascending),
                        hasTargets: products.rewards != nil)))
        }
    }

    /// The application of group `index` on the free units now.
    func application(ofGroup index: Int, record: Bool) -> GroupApplication? {
        let group = groups[index]
        return compiled[group.rule].rule.groupApplication(
            lines: group.lines, free: free, prices: prices, record: record)
    }

    mutating func pushGroup(_ index: Int) {
        groups[index].version &+= 1
        guard !groups[index].applied, let application = application(ofGroup: index, record: false) else { return }
        let rule = compiled[groups[index].rule]
        heap.insert(
            Entry(
                discount: application.discount, priority: rule.priority, rule: Int32(groups[index].rule), line: -1,
                group: Int32(index), version: groups[index].version))
    }

    /// Pushes line `line`'s best line-promotion application on its free units, from `best`.
    mutating func pushLine(_ line: Int, best: Choice?) {
        lineVersion[line] &+= 1
        guard let best, free[line] > 0 else { return }
        heap.insert(
            Entry(
                discount: best.discount, priority: best.priority, rule: Int32(best.rule), line: Int32(line),
                group: -1, version: lineVersion[line]))
    }

    /// Runs the choice to the end. `bestLine(line, free)` is the best line promotion of a line with
    /// that many free units (the per-line chooser of docs/pricing.md#line-promotions-combo-bulk-percent-amount).
    mutating func run(bestLine: (Int, Int64) -> Choice?) -> [Applied] {
        for line in free.indices { pushLine(line, best: bestLine(line, free[line])) }
        for index in groups.indices { pushGroup(index) }
        var applied: [Applied] = []
        // The groups a step touched, each listed once: the step that last listed each group.
        var touchedAt = [UInt32](repeating: 0, count: groups.count)
        var step: UInt32 = 0
        var touched: [Int32] = []
        while let entry = heap.popFirst() {
            if entry.group >= 0 {
                let index = Int(entry.group)
                guard !groups[index].applied, groups[index].version == entry.version,
                    let application = application(ofGroup: index, record: true)
                else { continue }
                groups[index].applied = true
                applied.append(
                    Applied(
                        rule: groups[index].rule, discount: application.discount,
                        shares: shares(of: application, rule: compiled[groups[index].rule].rule)))
                // Each group touching a line the step took units from is recomputed once (the order
                // of the pushes does not matter: the heap's order is total).
                step &+= 1
                touched.removeAll(keepingCapacity: true)
                for part in application.parts {
                    free[part.line] -= part.units
                    pushLine(part.line, best: bestLine(part.line, free[part.line]))
                    for group in groupsOfLine[part.line] where touchedAt[Int(group)] != step {
                        touchedAt[Int(group)] = step
                        touched.append(group)
                    }
                }
                for group in touched { pushGroup(Int(group)) }
            } else {
                let line = Int(entry.line)
                guard lineVersion[line] == entry.version else { continue }
                applied.append(
                    Applied(
                        rule: Int(entry.rule), discount: entry.discount, shares: [(line, free[line], entry.discount)]))
                free[line] = 0
                lineVersion[line] &+= 1
                for group in groupsOfLine[line] { pushGroup(Int(group)) }
            }
        }
        return applied
    }

    /// Its kind says how a group promotion's discount goes to the lines of the units it used
    /// (docs/pricing.md, "Attributing a discount to lines").
    func shares(of application: GroupApplication, rule: Promotion.Rule) -> [(
        line: Int, units: Int64, discount: Int64
    )] {
        let parts = application.parts.sorted { $0.line < $1.line }
        guard let kind = rule.group else { return [] }
        let shares = kind.shares(of: application, parts: parts)
        return parts.indices.map { (parts[$0].line, parts[$0].units, shares[$0]) }
    }
}

/// Splits `d` in proportion to `weights` (each ≥ 0): ⌊d × w / W⌋ each, then the leftover minor units
/// one each to the largest remainders d × w mod W, ties to the earlier position. All zero when W is 0.
func largestRemainderShares(_ d: Int64, weights: [Int64]) -> [Int64] {
    var shares = [Int64](repeating: 0, count: weights.count)
    weights.withUnsafeBufferPointer { weights in
        shares.withUnsafeMutableBufferPointer { largestRemainderShares(d, weights: weights, into: $0) }
    }
    return shares
}

/// The same split written into `shares` (as many as `weights`), with no array allocated for a few
/// dozen positions: the cart discount is split this way for every cart that has one.
func largestRemainderShares(
    _ d: Int64, weights: UnsafeBufferPointer<Int64>, into shares: UnsafeMutableBufferPointer<Int64>
) {
    var total: Int128 = 0
    for weight in weights { total += Int128(weight) }
    for index in shares.indices { shares[index] = 0 }
    guard d > 0, total > 0 else { return }
    withUnsafeTemporaryAllocation(of: (index: Int, remainder: Int128).self, capacity: weights.count) { remainders in
        var count = 0
        var allocated: Int64 = 0
        for index in weights.indices where weights[index] > 0 {
            let product = Int128(d) * Int128(weights[index])
            shares[index] = Int64(product / total)
            allocated += shares[index]
            remainders[count] = (index, product % total)
            count += 1
        }
        var leftover = d - allocated
        guard leftover > 0 else { return }
        var ranked = UnsafeMutableBufferPointer(rebasing: remainders[..<count])
        ranked.sort { $0.remainder != $1.remainder ? $0.remainder > $1.remainder : $0.index < $1.index }
        for entry in ranked where leftover > 0 {
            shares[entry.index] += 1
            leftover -= 1
        }
    }
}
