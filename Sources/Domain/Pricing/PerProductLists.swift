/// Lists of rules per product, gathered rule by rule and laid out as one array with offsets
/// (product `p`'s rules at `flat[offsets[p]..<offsets[p + 1]]`), each in the order added.
///
/// Gathered as pairs and placed by a counting pass, never as one array per product: a selector
/// may give a promotion thousands of products, and an array per product of a million-product
/// catalog cost an allocation and a uniqueness check per addition.
struct PerProductLists {
    private var products: [Int32] = []
    private var rules: [Int32] = []
    /// Per product, the last rule added to it: a rule is listed once per product.
    private var last: [Int32]

    init(productCount: Int) {
        last = [Int32](repeating: -1, count: productCount)
    }

    /// Adds `rule` to `product`'s list, unless it was the last one added there.
    mutating func add(_ rule: Int32, to product: ProductID) {
        guard last[product] != rule else { return }
        last[product] = rule
        products.append(Int32(product))
        rules.append(rule)
    }

    /// The offsets (one more than the products) and the lists, one after the other.
    func flattened() -> (offsets: [Int32], flat: [Int32]) {
        var offsets = [Int32](repeating: 0, count: last.count + 1)
        for product in products { offsets[Int(product) + 1] += 1 }
        for p in 0..<last.count { offsets[p + 1] += offsets[p] }
        var next = offsets
        var flat = [Int32](repeating: 0, count: rules.count)
        for (product, rule) in zip(products, rules) {
            flat[Int(next[Int(product)])] = rule
            next[Int(product)] += 1
        }
        return (offsets, flat)
    }
}
