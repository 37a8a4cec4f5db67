/// The application of a group promotion to the free units of a cart (docs/pricing.md,
/// "Applications"), as its kind works it out (``GroupPromotionKind``) on per-line counts: a
/// quantity of 10⁹ costs what a quantity of 1 costs.
struct GroupApplication {
    /// What one line gives to the application.
    struct Part {
        var line: Int
        var units: Int64
        /// What the kind shares the discount by: the line's own discount, or the list value of its
        /// units in the application, before sharing.
        var amount: Int64
    }

    var discount: Int64 = 0
    var parts: [Part] = []

    /// The lines a group promotion works on, each list in the order its units are taken.
    struct Lines {
        /// The lines of its products, most expensive first (ties: the earlier line).
        var byPriceDescending: [Int]
        /// The lines of its rewarded products, cheapest first (ties: the earlier line).
        var rewardsAscending: [Int]
        var hasTargets: Bool
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
