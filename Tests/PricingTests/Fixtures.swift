import Pricing

/// The original app's store (docs/files.md#the-shipped-store).
let store = try! Catalog(products: [
    Product(code: "VOUCHER", name: "Cabify Voucher", price: 500),
    Product(code: "TSHIRT", name: "Cabify T-Shirt", price: 2000),
    Product(code: "MUG", name: "Cabify Coffee Mug", price: 750)
])

let voucher2x1 = Promotion(
    id: "VOUCHER 2x1", name: "VOUCHER 2x1", rule: .combo(groupSize: 2, paid: 1), codes: ["VOUCHER"])
let tshirt3Plus = Promotion(
    id: "TSHIRT 3+", name: "TSHIRT 3+", rule: .bulk(threshold: 3, unitPrice: 1900), codes: ["TSHIRT"])

let noon = try! Instant(rfc3339: "2026-11-21T12:00:00Z")

/// A cart of scanned codes, merged as the readers merge them.
func cart(_ codes: [String], in catalog: Catalog = store, coupons: [String] = []) -> Cart {
    var merger = CartLineMerger(productCount: catalog.products.count)
    for code in codes { _ = merger.add(catalog.productID(for: code)!, quantity: 1) }
    return Cart(lines: merger.takeLines(), coupons: coupons)
}

func cart(_ quantities: KeyValuePairs<String, Int64>, in catalog: Catalog = store, coupons: [String] = []) -> Cart {
    var merger = CartLineMerger(productCount: catalog.products.count)
    for (code, quantity) in quantities { _ = merger.add(catalog.productID(for: code)!, quantity: quantity) }
    return Cart(lines: merger.takeLines(), coupons: coupons)
}

func price(
    _ cart: Cart, _ promotions: [Promotion], catalog: Catalog = store, coupons: [String] = [], at: Instant = noon
) throws -> Receipt {
    try PricingEngine(rules: RuleSet(promotions: promotions, catalog: catalog)).price(
        cart, coupons: coupons, at: at, now: noon)
}

func percent(
    _ id: String, _ hundredths: Int64, codes: [String], minimum: Int64 = 1, priority: Int64 = 0,
    coupon: String? = nil, start: String? = nil, end: String? = nil, enabled: Bool = true
) -> Promotion {
    Promotion(
        id: id, name: id, rule: .percent(minimumQuantity: minimum, hundredths: hundredths), codes: codes,
        start: start.map { try! Instant(rfc3339: $0) }, end: end.map { try! Instant(rfc3339: $0) },
        priority: priority, isEnabled: enabled, coupon: coupon)
}
