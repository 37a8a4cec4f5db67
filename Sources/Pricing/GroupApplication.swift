/// The application of a group promotion (`bundle`, `bxgy`) to the free units of a cart (SPEC §10.3),
/// worked out on per-line counts: a quantity of 10⁹ costs what a quantity of 1 costs. Runs of whole
/// groups inside one line are counted arithmetically; only groups that straddle lines are walked,
/// and there are fewer of those than lines.
struct GroupApplication {
    /// What one line gives to the application.
    struct Part {
        var line: Int
        var units: Int64
        /// bxgy: the line's discount; bundle: the list value of its grouped units, before sharing.
        var amount: Int64
    }

    var discount: Int64 = 0
    var parts: [Part] = []

    /// The lines a group promotion works on, each list in the order its units are taken.
    struct Lines {
        /// bundle: the lines of its codes, most expensive first; bxgy: the trigger lines, most
        /// expensive first (ties: the earlier line).
        var byPriceDescending: [Int]
        /// bxgy: the lines of the rewarded units, cheapest first (ties: the earlier line).
        var rewardsAscending: [Int]
        var hasTargets: Bool
    }

    /// The bundle's application on `free` units of lines priced `prices`, or nil when it has none.
    /// `record` false works out the discount alone, allocating nothing.
    static func bundle(_ rule: CompiledRule, lines: Lines, free: [Int64], prices: [Int64], record: Bool)
        -> GroupApplication?
    {
        let n = rule.threshold
        let limit = rule.cap
        guard n >= 1 else { return nil }
        var result = GroupApplication()
        var groups: Int64 = 0
        let order = lines.byPriceDescending
        var index = 0
        var remaining = order.isEmpty ? 0 : free[order[0]]
        func add(_ line: Int, _ units: Int64) {
            guard record, units > 0 else { return }
            if let last = result.parts.last, last.line == line {
                result.parts[result.parts.count - 1].units += units
                result.parts[result.parts.count - 1].amount += units * prices[line]
            } else {
                result.parts.append(Part(line: line, units: units, amount: units * prices[line]))
            }
        }
        while groups < limit {
            while remaining == 0, index + 1 < order.count {
                index += 1
                remaining = free[order[index]]
            }
            guard remaining > 0 else { break }
            let line = order[index]
            if remaining >= n {
                // Whole groups inside this line: all worth the same.
                let value = n * prices[line]
                let each = groupDiscount(rule, value: value)
                guard each > 0 else { break }
                let count = min(remaining / n, limit - groups)
                result.discount += count * each
                groups += count
                remaining -= count * n
                add(line, count * n)
                continue
            }
            // A group across lines: the next n units, from this line on.
            var need = n
            var value: Int64 = 0
            var j = index
            var left = remaining
            var taken: [(Int, Int64)] = []
            while need > 0 {
                if left == 0 {
                    guard j + 1 < order.count else { break }
                    j += 1
                    left = free[order[j]]
                    continue
                }
                let take = min(left, need)
                value += take * prices[order[j]]
                need -= take
                left -= take
                taken.append((order[j], take))
            }
            guard need == 0 else { break }  // no complete group is left
            let each = groupDiscount(rule, value: value)
            guard each > 0 else { break }
            result.discount += each
            groups += 1
            for (line, units) in taken { add(line, units) }
            index = j
            remaining = left
        }
        return result.discount > 0 ? result : nil
    }

    /// A group of list value `value`: P form V − P (zero when V ≤ P), p form round(V × p / 100),
    /// A form min(A, V).
    @inline(__always)
    static func groupDiscount(_ rule: CompiledRule, value: Int64) -> Int64 {
        switch rule.kind {
        case .bundlePrice: value > rule.value ? value - rule.value : 0
        case .bundlePercent: rule.value > 0 && rule.value <= 10_000 ? percentage(value, rule.value) : 0
        case .bundleAmount: max(0, min(rule.value, value))
        case .combo, .bulk, .percent, .amount, .cartPercent, .cartAmount, .bxgyPercent, .bxgyPrice: 0
        }
    }

    /// How many times a buy-X-get-Y applies to the free units: k = ⌊|T| / (N + M)⌋ without
    /// targets, min(⌊|T| / N⌋, ⌊|R| / M⌋) with them, at most its limit.
    static func bxgyCount(_ rule: CompiledRule, lines: Lines, free: [Int64]) -> Int64 {
        let n = rule.threshold
        let m = rule.get
        guard n >= 1, m >= 1 else { return 0 }
        var triggers: Int64 = 0
        for line in lines.byPriceDescending { triggers = triggers.addingSaturating(free[line]) }
        var k: Int64
        if lines.hasTargets {
            var rewardable: Int64 = 0
            for line in lines.rewardsAscending { rewardable = rewardable.addingSaturating(free[line]) }
            k = min(triggers / n, rewardable / m)
        } else {
            k = triggers / n.addingSaturating(m)
        }
        return min(k, rule.cap)
    }

    /// The buy-X-get-Y's application: k applications, the k × M cheapest rewardable units rewarded,
    /// the k × N most expensive other target units as triggers.
    static func bxgy(_ rule: CompiledRule, lines: Lines, free: [Int64], prices: [Int64], record: Bool)
        -> GroupApplication?
    {
        let n = rule.threshold
        let m = rule.get
        let k = bxgyCount(rule, lines: lines, free: free)
        guard k > 0 else { return nil }
        var result = GroupApplication()
        var toReward = k * m  // ≤ the rewardable units
        var rewarded: [(line: Int, units: Int64)] = []
        for line in lines.rewardsAscending where toReward > 0 {
            let units = min(free[line], toReward)
            guard units > 0 else { continue }
            toReward -= units
            let price = prices[line]
            let discount: Int64
            switch rule.kind {
            case .bxgyPercent:
                discount = rule.value > 0 && rule.value <= 10_000 ? percentage(units * price, rule.value) : 0
            case .bxgyPrice: discount = rule.value >= 0 && price > rule.value ? units * (price - rule.value) : 0
            case .combo, .bulk, .percent, .amount, .cartPercent, .cartAmount, .bundlePrice, .bundlePercent,
                .bundleAmount:
                discount = 0
            }
            result.discount += discount
            rewarded.append((line, units))
            if record { result.parts.append(Part(line: line, units: units, amount: discount)) }
        }
        guard result.discount > 0 else { return nil }
        guard record else { return result }
        var toTrigger = k * n
        for line in lines.byPriceDescending where toTrigger > 0 {
            let alreadyRewarded = lines.hasTargets ? 0 : rewarded.first { $0.line == line }?.units ?? 0
            let units = min(free[line] - alreadyRewarded, toTrigger)
            guard units > 0 else { continue }
            toTrigger -= units
            if let part = result.parts.firstIndex(where: { $0.line == line }) {
                result.parts[part].units += units
            } else {
                result.parts.append(Part(line: line, units: units, amount: 0))
            }
        }
        return result
    }
}

extension Int64 {
    /// `self + other`, or `Int64.max` when that does not fit (both ≥ 0).
    @inline(__always)
    func addingSaturating(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
