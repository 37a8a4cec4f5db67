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
    public var effectsBefore: [Int: Effect] { effectTableBefore.dictionary }
    public var effectsAfter: [Int: Effect] { effectTableAfter.dictionary }
    /// Promotion `index`'s figures under the old file, nil when it did nothing there.
    public func effectBefore(_ index: Int) -> Effect? { effectTableBefore[index] }
    /// Promotion `index`'s figures under the new file, nil when it did nothing there.
    public func effectAfter(_ index: Int) -> Effect? { effectTableAfter[index] }
    /// The same, as they are kept while carts stream by.
    private var effectTableBefore = EffectTable()
    private var effectTableAfter = EffectTable()
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
            Self.count(a, cart: carts, into: &effectTableBefore)
            Self.count(b, cart: carts, into: &effectTableAfter)
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
        effectTableBefore.merge(later.effectTableBefore)
        effectTableAfter.merge(later.effectTableAfter)
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

    /// Each promotion that applied in the receipt (cart number `cart` of this tally): the cart once,
    /// and its whole discount there.
    private static func count(_ receipt: Receipt, cart: Int, into effects: inout EffectTable) {
        receipt.lines.withUnsafeBufferPointer { lines in
            for line in lines.indices {
                // Read in place: copying a line's promotions would retain their strings.
                let promotions = UnsafePointer(lines.baseAddress! + line).pointer(to: \.promotions)!
                for position in 0..<promotions.pointee.count {
                    if let index = promotions.pointee.ruleIndex(at: position) {
                        effects.add(index, discount: promotions.pointee.discount(at: position), cart: cart)
                    }
                }
            }
        }
        if let cartPromotion = receipt.cartPromotion, let index = cartPromotion.ruleIndex {
            effects.add(index, discount: cartPromotion.discount, cart: cart)
        }
    }
}

/// Why a cart could not be priced under one of the files.
public struct DiffError: Error, Sendable, Equatable {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }
}
