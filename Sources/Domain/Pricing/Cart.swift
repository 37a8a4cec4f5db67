/// A cart ready to price: its lines (units of one product merged, in order of first appearance), the
/// coupons it presents, and optionally its currency and the instant it is priced at.
public struct Cart: Sendable, Equatable {
    public var lines: [Line]
    public var coupons: [String]
    /// When set, must equal the catalog's currency.
    public var currency: Currency?
    /// The cart's own pricing instant, used when the caller gives none.
    public var at: Instant?
    /// The cart's id, echoed in its receipt.
    public var id: CartID?
    /// Who is buying: an id and groups (docs/selectors.md, "Customer groups"); nil: nobody known.
    public var customer: Customer?

    /// A cart's customer: `{"id": "C-17", "groups": ["members"]}`, both optional.
    public struct Customer: Sendable, Equatable {
        public var id: String?
        public var groups: [String]

        public init(id: String? = nil, groups: [String] = []) {
            self.id = id
            self.groups = groups
        }
    }

    public struct Line: Sendable, Equatable {
        public var product: ProductID
        public var quantity: Int64

        public init(product: ProductID, quantity: Int64) {
            self.product = product
            self.quantity = quantity
        }
    }

    public init(
        lines: [Line] = [], coupons: [String] = [], currency: Currency? = nil, at: Instant? = nil, id: CartID? = nil,
        customer: Customer? = nil
    ) {
        self.id = id
        self.customer = customer
        self.lines = lines
        self.coupons = coupons
        self.currency = currency
        self.at = at
    }

    /// The quantities one item may have: whole units from 1 to 1,000,000,000.
    public static let itemQuantities: ClosedRange<Int64> = 1...1_000_000_000
}

/// Merges scanned items into cart lines: units of one product become one line, in the order each
/// product first appeared. Reusable across carts without reallocating.
public struct CartLineMerger: Sendable {
    /// Per product: its line's index + 1, or 0 when it has none yet.
    @usableFromInline var slots: [Int32]
    @usableFromInline var lines: [Cart.Line] = []

    public init(productCount: Int) {
        slots = [Int32](repeating: 0, count: productCount)
    }

    /// The number of products it merges lines for.
    public var productCount: Int { slots.count }

    /// Adds `quantity` units of `product`. Returns false, adding nothing, when the line's quantity
    /// would no longer fit in 64 bits.
    @inlinable @inline(__always)
    public mutating func add(_ product: ProductID, quantity: Int64) -> Bool {
        let slot = Int(slots[product])
        if slot == 0 {
            lines.append(Cart.Line(product: product, quantity: quantity))
            slots[product] = Int32(truncatingIfNeeded: lines.count)
            return true
        }
        let (sum, overflow) = lines[slot - 1].quantity.addingReportingOverflow(quantity)
        if overflow { return false }
        lines[slot - 1].quantity = sum
        return true
    }

    /// Adds one unit of each product in `products` (interned lines, such as a scanner produces),
    /// counting in a scratch array first: about a nanosecond a line. Returns false, adding nothing,
    /// when an id is not a product of the catalog or a quantity would no longer fit in 64 bits.
    public mutating func addUnits(_ products: UnsafeBufferPointer<Int32>) -> Bool {
        let productCount = slots.count
        var counts = [Int64](repeating: 0, count: productCount)
        var order: [Int32] = []
        let valid = counts.withUnsafeMutableBufferPointer { counts -> Bool in
            guard let c = counts.baseAddress else { return products.isEmpty }
            for id in products {
                guard UInt32(bitPattern: id) < UInt32(productCount) else { return false }
                let previous = c[Int(id)]
                c[Int(id)] = previous &+ 1  // at most products.count: no overflow
                if previous == 0 { order.append(id) }
            }
            return true
        }
        guard valid else { return false }
        for id in order {
            let product = Int(id)
            let slot = Int(slots[product])
            if slot > 0, lines[slot - 1].quantity.addingReportingOverflow(counts[product]).overflow { return false }
        }
        for id in order { _ = add(Int(id), quantity: counts[Int(id)]) }
        return true
    }

    /// Lines of a cart done with (``recycle(_:)``), whose storage the next cart's lines take.
    @usableFromInline var spare: [Cart.Line] = []

    /// The merged lines; the merger is empty afterwards and ready for the next cart. The lines
    /// keep the storage they were merged in; the next cart's are merged in the storage of the
    /// lines recycled since, if any, else in new storage: a batch that recycles each cart
    /// allocates nothing per cart.
    public mutating func takeLines() -> [Cart.Line] {
        for line in lines { slots[line.product] = 0 }
        var merged = spare
        spare = []
        swap(&merged, &lines)
        // When only this merger holds the recycled storage, emptying it keeps its capacity without
        // copying; storage still shared (the cart it came from still held, perhaps on another
        // thread) is replaced, never written.
        lines.removeAll(keepingCapacity: true)
        return merged
    }

    /// Takes back the lines of a cart done with, so that the next cart's lines reuse their storage.
    /// Give them up too: storage still held elsewhere when the next cart is merged is not reused.
    public mutating func recycle(_ lines: [Cart.Line]) {
        spare = lines
    }
}
