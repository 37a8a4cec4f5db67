import Pricing

/// docs/explanations.md written the plain way on top of the reference pricing model: statuses in their order of
/// precedence, `missing` by formulas and by trying one unit more at a time, hints by pricing.
public struct ReferenceExplanations {
    public let model: ReferenceModel

    public init(model: ReferenceModel) {
        self.model = model
    }

    /// `id status extra`, one string per explanation, in file order.
    public func explain(_ cart: Cart, coupons: [String] = [], at instant: Instant) -> [String] {
        let catalog = model.catalog
        let result = model.price(cart, coupons: coupons, at: instant)
        let inCart = Set(cart.lines.map(\.product))
        func money(_ value: Int64) -> String { Amount.format(value, minorDigits: catalog.currency.minorDigits) }
        // Each line's total after item promotions.
        let lineTotals = cart.lines.indices.map {
            cart.lines[$0].quantity * catalog[cart.lines[$0].product].price
                - result.lines[$0].reduce(0) { $0 + $1.discount }
        }
        var out: [String] = []
        for (index, p) in model.promotions.enumerated() {
            let isCart = p.rule.isCartRule
            // Listed: a cart promotion always; an item promotion when the cart has one of its
            // products or rewarded products, selectors resolved (docs/selectors.md#explanations).
            let (codes, targets) = model.products(of: p)
            guard
                isCart
                    || (codes + (targets ?? [])).contains(where: {
                        catalog.productID(for: $0).map(inCart.contains) == true
                    })
            else { continue }
            let head = "\(p.id) "
            if !p.isEnabled {
                out.append(head + "disabled")
                continue
            }
            if let start = p.start, instant < start {
                out.append(head + "not-started \(start)")
                continue
            }
            if let end = p.end, end <= instant {
                out.append(head + "ended \(end)")
                continue
            }
            if !model.presents(p, cart, coupons) {
                out.append(head + "needs-coupon")
                continue
            }
            switch model.standing(of: p, in: cart) {
            case .notEligible:
                out.append(head + "not-eligible")
                continue
            case .exhausted:
                out.append(head + "exhausted")
                continue
            case .eligible: break
            }
            if isCart {
                // On part of the cart (docs/selectors.md#cart-promotions-on-part-of-the-cart): the total of its products' lines only.
                let selected = NaiveSelection.cartProducts(of: p, in: catalog)
                let s = cart.lines.indices.filter { selected?.contains(cart.lines[$0].product) ?? true }
                    .reduce(Int64(0)) { $0 + lineTotals[$1] }
                func discount(_ s: Int64) -> Int64 {
                    switch NaiveRule(p.rule) {
                    case .cartPercent(let minimum, let h, let cap):
                        guard s >= minimum else { return 0 }
                        let d = Int64((Int128(s) * Int128(h) + 5_000) / 10_000)
                        return min(d, cap ?? .max)
                    case .cartAmount(let minimum, let a): return s >= minimum ? min(a, s) : 0
                    default: return 0
                    }
                }
                if result.cartWinner == index {
                    out.append(head + "applied \(money(result.cartDiscount))")
                    continue
                }
                if discount(s) > 0 {
                    out.append(head + "outranked \(result.cartPromotion ?? "-")")
                    continue
                }
                // The least total with a positive discount: at least the minimum, and enough for one minor unit.
                var need: Int64
                switch NaiveRule(p.rule) {
                case .cartPercent(let minimum, let h, _): need = max(minimum, (5_000 + h - 1) / h)
                case .cartAmount(let minimum, _): need = max(minimum, 1)
                default: need = .max
                }
                need = max(need, s + 1)
                // More spend on its products is only possible with a product to spend on.
                let canSpend = selected.map { $0.contains { catalog[$0].price > 0 } } ?? true
                out.append(
                    head
                        + (canSpend && discount(need) > 0 ? "below-threshold amount \(money(need - s))" : "no-discount")
                )
                continue
            }
            let discounts = result.lines.flatMap { $0 }.filter { $0.id == p.id }
            if !discounts.isEmpty {
                out.append(head + "applied \(money(discounts.reduce(0) { $0 + $1.discount }))")
                continue
            }
            let first = model.firstStep(cart, promotion: index)
            if !first.isEmpty {
                let position = first.flatMap(\.lines).map { result.firstUse[$0] }.min() ?? Int.max
                out.append(
                    head + "outranked "
                        + (position < result.order.count ? model.promotions[result.order[position]].id : "-"))
                continue
            }
            if let (code, units) = missing(index, cart: cart) {
                out.append(head + "below-threshold \(code) \(units)")
            } else {
                out.append(head + "no-discount")
            }
        }
        return out
    }

    /// The cart with `units` more of `product`.
    public func adding(_ units: Int64, of product: ProductID, to cart: Cart) -> Cart {
        var bigger = cart
        if let line = cart.lines.firstIndex(where: { $0.product == product }) {
            bigger.lines[line].quantity += units
        } else {
            bigger.lines.append(Cart.Line(product: product, quantity: units))
        }
        return bigger
    }

    /// The code needing the fewest more units (ties: in the cart, earlier line first; then file order).
    func missing(_ index: Int, cart: Cart) -> (String, Int64)? {
        let rule = model.promotions[index].rule
        // Selections as code lists in catalog order: its products, then its rewarded products.
        let p = (
            rule: rule, codes: model.products(of: model.promotions[index]).codes,
            targets: model.products(of: model.promotions[index]).targets
        )
        // A buy-X-get-Y whose every product it could reward (its targets, else its codes) is listed
        // at or below its reward price, or is free under a percentage off: every rewarded unit is
        // worth nothing, and an application worth nothing does not exist, whatever is added.
        if case .bxgy(_, _, let reward, _) = NaiveRule(p.rule) {
            let floor: Int64
            switch reward {
            case .price(let price): floor = price
            case .percent: floor = 0
            }
            let worthSomething = (p.targets ?? p.codes).contains { code in
                model.catalog.productID(for: code).map { model.catalog[$0].price > floor } ?? false
            }
            if !worthSomething { return nil }
        }
        var best: (code: String, units: Int64, line: Int)?
        var seen: Set<ProductID> = []
        for code in p.codes + (p.targets ?? []) {
            guard let product = model.catalog.productID(for: code), seen.insert(product).inserted else { continue }
            let line = cart.lines.firstIndex { $0.product == product } ?? Int.max
            let q = line == Int.max ? 0 : cart.lines[line].quantity
            let u = model.catalog[product].price
            var units: Int64?
            switch NaiveRule(p.rule) {
            // Line types by their formulas: the least quantity beyond q with a positive discount.
            case .combo(let n, _): units = u > 0 ? max(q + 1, n) - q : nil
            case .bulk(let t, let price): units = price < u ? max(q + 1, t) - q : nil
            case .percent(let t, let h, _): units = u > 0 ? max(q + 1, t, (5_000 + u * h - 1) / (u * h)) - q : nil
            case .amount(let t, _): units = u > 0 ? max(q + 1, t) - q : nil
            // Group types one unit at a time: a bundle at most its group size.
            case .bundle(let n, _, _):
                units = (1...n).first { !model.firstStep(adding($0, of: product, to: cart), promotion: index).isEmpty }
            // A buy-X-get-Y: the least units raising k above 0, by counting.
            case .bxgy(let n, let m, _, _):
                func count(_ codes: [String]) -> Int64 {
                    Set(codes.compactMap { model.catalog.productID(for: $0) }).reduce(0) { sum, id in
                        sum + (cart.lines.first { $0.product == id }?.quantity ?? 0)
                    }
                }
                let t = count(p.codes)
                if let targets = p.targets {
                    let r = count(targets)
                    if p.codes.contains(code) {
                        units = r >= m ? max(1, n - t) : nil
                    } else {
                        units = t >= n ? max(1, m - r) : nil
                    }
                } else {
                    units = max(1, n + m - t)
                }
            case .cartPercent, .cartAmount: units = nil
            }
            guard let units, q + units <= Cart.itemQuantities.upperBound else { continue }
            if let current = best, (current.units, current.line) <= (units, line) { continue }
            best = (code, units, line)
        }
        return best.map { ($0.code, $0.units) }
    }

    /// `code units saving`, largest saving first, at most three.
    public func hints(_ cart: Cart, coupons: [String] = [], at instant: Instant) -> [String] {
        var candidates: [(index: Int, product: ProductID, units: Int64, code: String, discount: Int64)] = []
        for line in explain(cart, coupons: coupons, at: instant) {
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count == 4, parts[1] == "below-threshold", parts[2] != "amount",
                let index = model.promotions.firstIndex(where: { $0.id == parts[0] }),
                let product = model.catalog.productID(for: parts[2]),
                let units = Int64(parts[3])
            else { continue }
            let discount =
                model.firstStep(adding(units, of: product, to: cart), promotion: index).map(\.discount).max() ?? 0
            candidates.append((index, product, units, parts[2], discount))
        }
        candidates.sort { $0.discount != $1.discount ? $0.discount > $1.discount : $0.index < $1.index }
        var kept: [(index: Int, text: String, saving: Int64)] = []
        for candidate in candidates.prefix(10) where kept.count < 3 {
            let priced = model.price(
                adding(candidate.units, of: candidate.product, to: cart), coupons: coupons, at: instant)
            let id = model.promotions[candidate.index].id
            let saving = priced.lines.flatMap { $0 }.filter { $0.id == id }.reduce(0) { $0 + $1.discount }
            if saving > 0 { kept.append((candidate.index, "\(candidate.code) \(candidate.units) \(saving)", saving)) }
        }
        return kept.sorted { $0.saving != $1.saving ? $0.saving > $1.saving : $0.index < $1.index }.map(\.text)
    }
}
