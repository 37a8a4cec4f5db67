import Pricing

/// The impact of a promotions change on a corpus of carts (docs/diff.md).
public struct DiffReport: Sendable, Equatable {
    public struct Failure: Sendable, Equatable {
        public var file: String
        public var line: Int
        public var error: String
    }

    public struct PromotionEffect: Sendable, Equatable {
        public var id: String
        /// nil on the side whose file lacks the id.
        public var before: DiffTally.Effect?
        public var after: DiffTally.Effect?
    }

    public struct Change: Sendable, Equatable {
        public var file: String
        public var line: Int
        /// The cart's own id, when it has one.
        public var id: CartID? = nil
        public var before: Int64
        public var after: Int64
        public var difference: Int128 { Int128(after) - Int128(before) }
    }

    public var currency: Currency
    public var carts: Int
    public var failed: Int
    public var failures: [Failure]
    public var changed: Int
    public var revenueBefore: Int128
    public var revenueAfter: Int128
    public var promotions: [PromotionEffect]
    public var largestChanges: [Change]

    /// The report of `tally`, the carts of `files` (as messages name them) priced under `old` and `new`.
    public init(_ tally: DiffTally, files: [String], old: [Promotion], new: [Promotion], currency: Currency) {
        self.currency = currency
        carts = tally.carts
        failed = tally.failed
        failures = tally.failures.map { Failure(file: files[$0.place.file], line: $0.place.line, error: $0.error) }
        changed = tally.changed
        revenueBefore = tally.before
        revenueAfter = tally.after
        // Keyed by the id's bytes: two ids that only look alike (`é` as one code point, or `e` and a
        // combining accent) are two promotions, as they are to the ledger.
        var before: [[UInt8]: DiffTally.Effect] = [:]
        var after: [[UInt8]: DiffTally.Effect] = [:]
        var ids: [[UInt8]: String] = [:]
        for (index, promotion) in old.enumerated() {
            let key = Array(promotion.id.utf8)
            before[key] = tally.effectBefore(index) ?? DiffTally.Effect()
            ids[key] = promotion.id
        }
        for (index, promotion) in new.enumerated() {
            let key = Array(promotion.id.utf8)
            after[key] = tally.effectAfter(index) ?? DiffTally.Effect()
            ids[key] = ids[key] ?? promotion.id
        }
        // Sorted by id, UTF-8 bytes.
        promotions = ids.keys.sorted { $0.lexicographicallyPrecedes($1) }.map {
            PromotionEffect(id: ids[$0]!, before: before[$0], after: after[$0])
        }
        largestChanges = tally.largest.map {
            Change(file: files[$0.place.file], line: $0.place.line, id: $0.id, before: $0.before, after: $0.after)
        }
    }

    public var revenueDifference: Int128 { revenueAfter - revenueBefore }

    /// What is wrong when an amount of the report does not fit in a signed 64-bit count of minor
    /// units (docs/money.md: an amount reported must): the first such, named, with its value; nil
    /// when all fit. The difference of two that fit fits too: totals are never negative.
    public var amountOutOfRange: String? {
        func fits(_ value: Int128) -> Bool { value >= Int128(Int64.min) && value <= Int128(Int64.max) }
        func problem(_ what: String, _ value: Int128) -> String {
            "\(what), \(amount(value)) \(currency.code), does not fit in a 64-bit count of minor units: diff fewer carts at a time"
        }
        if !fits(revenueBefore) { return problem("the revenue before", revenueBefore) }
        if !fits(revenueAfter) { return problem("the revenue after", revenueAfter) }
        for promotion in promotions {
            if let effect = promotion.before, !fits(effect.discount) {
                return problem("the discount of \"\(promotion.id.forDisplay())\" before", effect.discount)
            }
            if let effect = promotion.after, !fits(effect.discount) {
                return problem("the discount of \"\(promotion.id.forDisplay())\" after", effect.discount)
            }
        }
        return nil
    }

    /// The change in percent with two decimals, half away from zero; nil when revenue before is zero.
    public var percent: String? {
        guard revenueBefore != 0 else { return nil }
        let scaled = revenueDifference * 10_000  // hundredths of a percent, before rounding
        let d = revenueBefore
        let q = scaled / d
        let r = scaled % d
        // Half away from zero: compare twice the remainder with the divisor, in magnitude.
        var hundredths = q
        if 2 * r.magnitude >= d.magnitude { hundredths += (scaled < 0) != (d < 0) ? -1 : 1 }
        let sign = hundredths < 0 ? "-" : ""
        let m = hundredths.magnitude
        let fraction = m % 100
        return "\(sign)\(m / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// `--fail-on-revenue-change P` (P in millionths of a percent): whether |after − before| × 100 >
    /// P × before exactly; with nothing before, whether anything changed.
    public func exceeds(revenueChangeMillionths p: Int64) -> Bool {
        guard revenueBefore != 0 else { return revenueAfter != 0 }
        return revenueDifference.magnitude * 100 * 1_000_000 > UInt128(p) * revenueBefore.magnitude
    }
}
