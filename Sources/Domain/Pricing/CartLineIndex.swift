/// Which line of a cart holds a product, for the group promotions (docs/pricing.md#choosing), which look up the
/// products they name in every cart: a short cart is searched; a longer one indexed by product, in a
/// dense table when the catalog is at most 32 times the cart's lines (a 1,000-line cart of a
/// 1,000-product catalog), else in a hash table sized for the cart, so that a batch of small carts
/// against a large catalog costs nothing per product of the catalog.
struct CartLineIndex {
    private let lines: [Cart.Line]
    /// Per product of the catalog, its line + 1, or 0; empty unless the index is dense.
    private var dense: [Int32] = []
    /// Open addressing: product + 1 (0 for an empty slot) and its line; empty unless hashed.
    private var keys: [Int32] = []
    private var values: [Int32] = []
    private var shift: UInt64 = 0

    /// Lines of a merged cart (one per product); were a product on two, the later would be found.
    init(_ lines: [Cart.Line], productCount: Int) {
        self.lines = lines
        guard lines.count > 16 else { return }
        if productCount <= 32 * lines.count {
            var dense = [Int32](repeating: 0, count: productCount)
            for (index, line) in lines.enumerated() { dense[line.product] = Int32(index + 1) }
            self.dense = dense
            return
        }
        var capacity = 32
        while capacity < 2 * lines.count { capacity <<= 1 }
        shift = UInt64(64 - capacity.trailingZeroBitCount)
        keys = [Int32](repeating: 0, count: capacity)
        values = [Int32](repeating: 0, count: capacity)
        for (index, line) in lines.enumerated() {
            var slot = home(line.product)
            while keys[slot] != 0, keys[slot] != Int32(line.product + 1) { slot = (slot + 1) & (capacity - 1) }
            keys[slot] = Int32(line.product + 1)
            values[slot] = Int32(index)
        }
    }

    @inline(__always)
    private func home(_ product: ProductID) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: product) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The line holding `product`, or nil.
    @inline(__always)
    func line(of product: ProductID) -> Int? {
        if !dense.isEmpty {
            let line = Int(dense[product])
            return line == 0 ? nil : line - 1
        }
        if !keys.isEmpty {
            let key = Int32(truncatingIfNeeded: product + 1)
            var slot = home(product)
            while true {
                let found = keys[slot]
                if found == key { return Int(values[slot]) }
                if found == 0 { return nil }
                slot = (slot + 1) & (keys.count - 1)
            }
        }
        return lines.lastIndex { $0.product == product }
    }

    /// The units of `product` in the cart.
    @inline(__always)
    func quantity(of product: ProductID) -> Int64 {
        line(of: product).map { lines[$0].quantity } ?? 0
    }
}
