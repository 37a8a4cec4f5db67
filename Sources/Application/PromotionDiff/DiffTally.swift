import Pricing

/// Where a cart came from: the position of its file among those given, and its line (1 for a
/// single-cart file).
public struct CartPlace: Sendable, Hashable, Comparable {
    public var file: Int
    public var line: Int

    public init(file: Int, line: Int) {
        self.file = file
        self.line = line
    }

    public static func < (a: CartPlace, b: CartPlace) -> Bool { (a.file, a.line) < (b.file, b.line) }
}

/// The running figures of a diff over carts (docs/diff.md): counts, revenue on both sides, what each
/// promotion did on each side, the first failures and the largest changes. Tallies of consecutive
/// runs of carts merge into the tally of the whole, so blocks can be tallied in parallel.
public struct DiffTally: Sendable {
    /// How many failures and changes are kept.
    public static let kept = 10

    public struct Failure: Sendable, Equatable {
        public var place: CartPlace
        public var error: String
    }

    public struct Change: Sendable, Equatable {
        public var place: CartPlace
        /// The cart's own id, when it has one.
        public var id: CartID? = nil
        public var before: Int64
        public var after: Int64
        public var difference: Int128 { Int128(after) - Int128(before) }
    }

    /// What one promotion did on one side: the carts where it applied and its discount there.
    public struct Effect: Sendable, Equatable {
        public var carts = 0
        public var discount: Int128 = 0

        public init(carts: Int = 0, discount: Int128 = 0) {
            self.carts = carts
            self.discount = discount
        }
    }

    public var carts = 0
    public var failed = 0
    /// The first ones, in input order.
    public var failures: [Failure] = []
    public var changed = 0
    public var before: Int128 = 0
    public var after: Int128 = 0
    /// Per promotion (its position in its file): before, under the old file; after, under the new.
    public var effectsBefore: [Int: Effect] = [:]
    public var effectsAfter: [Int: Effect] = [:]
    /// The largest changes, largest first (ties: the earlier cart).
    public var largest: [Change] = []

    public init() {}

    /// One cart: its receipts under both files, or why either could not price it (the old file's
    /// error when both failed).
    public mutating func add(
        _ place: CartPlace, before old: Result<Receipt, DiffError>, after new: Result<Receipt, DiffError>
    ) {
        carts += 1
        switch (old, new) {
        case (.success(let a), .success(let b)):
            before += Int128(a.total)
            after += Int128(b.total)
            Self.count(a, into: &effectsBefore)
            Self.count(b, into: &effectsAfter)
            if a.total != b.total {
                changed += 1
                keep(Change(place: place, id: a.id, before: a.total, after: b.total))
            }
        case (.failure(let error), _), (_, .failure(let error)):
            failed += 1
            if failures.count < Self.kept { failures.append(Failure(place: place, error: error.message)) }
        }
    }

    /// A cart that could not be read at all.
    public mutating func addUnreadable(_ place: CartPlace, error: String) {
        add(place, before: .failure(DiffError(error)), after: .failure(DiffError(error)))
    }

    /// Adds the tally of the carts that come after this one's.
    public mutating func merge(_ later: DiffTally) {
        carts += later.carts
        failed += later.failed
        failures += later.failures.prefix(Self.kept - failures.count)
        changed += later.changed
        before += later.before
        after += later.after
        for (index, effect) in later.effectsBefore { effectsBefore[index, default: Effect()].add(effect) }
        for (index, effect) in later.effectsAfter { effectsAfter[index, default: Effect()].add(effect) }
        for change in later.largest { keep(change) }
    }

    /// Which of two changes is larger: the absolute difference, then the earlier cart.
    static func isLarger(_ a: Change, _ b: Change) -> Bool {
        let da = a.difference.magnitude
        let db = b.difference.magnitude
        return da != db ? da > db : a.place < b.place
    }

    private mutating func keep(_ change: Change) {
        if largest.count == Self.kept, let last = largest.last, !Self.isLarger(change, last) { return }
        let position = largest.firstIndex { Self.isLarger(change, $0) } ?? largest.count
        largest.insert(change, at: position)
        if largest.count > Self.kept { largest.removeLast() }
    }

    /// Each promotion that applied in the receipt: the cart once, and its whole discount there.
    private static func count(_ receipt: Receipt, into effects: inout [Int: Effect]) {
        var discounts: [Int: Int64] = [:]
        for line in receipt.lines {
            for promotion in line.promotions {
                if let index = promotion.ruleIndex { discounts[index, default: 0] += promotion.discount }
            }
        }
        if let cart = receipt.cartPromotion, let index = cart.ruleIndex {
            discounts[index, default: 0] += cart.discount
        }
        for (index, discount) in discounts {
            effects[index, default: Effect()].add(Effect(carts: 1, discount: Int128(discount)))
        }
    }
}

extension DiffTally.Effect {
    mutating func add(_ other: DiffTally.Effect) {
        carts += other.carts
        discount += other.discount
    }
}

/// Why a cart could not be priced under one of the files.
public struct DiffError: Error, Sendable, Equatable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
