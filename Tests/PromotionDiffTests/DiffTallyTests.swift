import Pricing
import PromotionDiff
import ReferenceModels
import SeededRandom
import Testing

/// The diff's figures against docs/diff.md written the plain way over the reference pricing model.
@Suite("checkout diff: the tally against a reference")
struct DiffTallyTests {
    /// A second promotions list: some dropped, some changed, some added, ids kept where they survive.
    static func changed(_ promotions: [Promotion], random: inout SplitMix64) -> [Promotion] {
        var result: [Promotion] = []
        for var promotion in promotions {
            switch random.draw(0...5) {
            case 0: continue
            case 1: promotion.priority += 1
            case 2: promotion.isEnabled.toggle()
            case 3:
                if case .percent(var kind) = promotion.rule {
                    kind.hundredths = min(10_000, kind.hundredths * 2)
                    promotion.rule = .percent(kind)
                }
            default: break
            }
            result.append(promotion)
        }
        if random.draw(0...1) == 0 {
            result.append(
                Promotion(id: "new", name: "New", rule: .cartAmount(minimum: 0, amountOff: Int64(random.draw(1...900))))
            )
        }
        return result
    }

    @Test(
        "carts, changed, revenue, percent, per-promotion figures and largest changes, on random shops; merging in any cut"
    )
    func differential() throws {
        var random = SplitMix64(seed: 12_2026)
        for shopIndex in 0..<400 {
            let shop = RandomV2Shop(random: &random)
            let old = shop.promotions
            let new = Self.changed(old, random: &random)
            let engines = (
                PricingEngine(rules: RuleSet(promotions: old, catalog: shop.catalog)),
                PricingEngine(rules: RuleSet(promotions: new, catalog: shop.catalog))
            )
            let models = (
                ReferenceModel(catalog: shop.catalog, promotions: old),
                ReferenceModel(catalog: shop.catalog, promotions: new)
            )
            let carts = (0..<random.draw(1...25)).map { _ in shop.cart(random: &random, large: false) }

            var tally = DiffTally()
            var pieces: [DiffTally] = []
            var piece = DiffTally()
            for (index, cart) in carts.enumerated() {
                let place = CartPlace(file: 0, line: index + 1)
                let a = Result<Receipt, PricingError> { () throws(PricingError) in
                    try engines.0.price(cart, at: shop.instant, now: shop.instant)
                }.mapError { DiffError($0.description) }
                let b = Result<Receipt, PricingError> { () throws(PricingError) in
                    try engines.1.price(cart, at: shop.instant, now: shop.instant)
                }.mapError { DiffError($0.description) }
                tally.add(place, before: a, after: b)
                piece.add(place, before: a, after: b)
                if random.draw(0...3) == 0 {
                    pieces.append(piece)
                    piece = DiffTally()
                }
            }
            pieces.append(piece)
            var merged = DiffTally()
            for piece in pieces { merged.merge(piece) }
            let report = DiffReport(tally, files: ["c.ndjson"], old: old, new: new, currency: shop.catalog.currency)
            #expect(
                DiffReport(merged, files: ["c.ndjson"], old: old, new: new, currency: shop.catalog.currency) == report)

            // The reference: every figure from the reference model's receipts, straight from docs/diff.md.
            let results = carts.map { (models.0.price($0, at: shop.instant), models.1.price($0, at: shop.instant)) }
            #expect(report.carts == carts.count)
            #expect(report.failed == 0)
            #expect(report.changed == results.filter { $0.0.total != $0.1.total }.count, "shop \(shopIndex)")
            #expect(report.revenueBefore == Int128(results.reduce(0) { $0 + $1.0.total }))
            #expect(report.revenueAfter == Int128(results.reduce(0) { $0 + $1.1.total }))
            let before = report.revenueBefore
            let after = report.revenueAfter
            if before == 0 {
                #expect(report.percent == nil)
            } else {
                // Hundredths of a percent, half away from zero, by hand.
                let x = (after - before) * 10_000
                var h = x / before
                if 2 * (x % before).magnitude >= before.magnitude { h += x < 0 ? -1 : 1 }
                let text =
                    (h < 0 ? "-" : "") + "\(h.magnitude / 100)." + (h.magnitude % 100 < 10 ? "0" : "")
                    + "\(h.magnitude % 100)"
                #expect(report.percent == text)
            }
            for effect in report.promotions {
                #expect(
                    effect.before
                        == Self.effect(effect.id, in: results.map(\.0), present: old.contains { $0.id == effect.id }),
                    "\(effect.id) before, shop \(shopIndex)")
                #expect(
                    effect.after
                        == Self.effect(effect.id, in: results.map(\.1), present: new.contains { $0.id == effect.id }),
                    "\(effect.id) after, shop \(shopIndex)")
            }
            #expect(
                report.promotions.map(\.id)
                    == Set(old.map(\.id) + new.map(\.id)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            // Largest changes: |difference| descending, ties to the earlier cart, at most 10.
            let expected = results.enumerated().filter { $0.element.0.total != $0.element.1.total }
                .sorted { a, b in
                    let da = abs(a.element.1.total - a.element.0.total)
                    let db = abs(b.element.1.total - b.element.0.total)
                    return da != db ? da > db : a.offset < b.offset
                }
                .prefix(10).map { "\($0.offset + 1) \($0.element.0.total) \($0.element.1.total)" }
            #expect(report.largestChanges.map { "\($0.line) \($0.before) \($0.after)" } == Array(expected))
        }
    }

    /// The carts where promotion `id` applied (an item entry or the cart promotion) and its discount
    /// there; nil when its file lacks it.
    static func effect(_ id: String, in results: [ReferenceModel.Result], present: Bool) -> DiffTally.Effect? {
        guard present else { return nil }
        var effect = DiffTally.Effect()
        for result in results {
            let entries = result.lines.flatMap { $0 }.filter { $0.id == id }
            let cart = result.cartPromotion == id ? result.cartDiscount : 0
            guard !entries.isEmpty || result.cartPromotion == id else { continue }
            effect.carts += 1
            effect.discount += Int128(entries.reduce(0) { $0 + $1.discount } + cart)
        }
        return effect
    }

    @Test("the gate: |after − before| × 100 > P × before, exactly; with nothing before, any revenue after")
    func gate() {
        var tally = DiffTally()
        let place = CartPlace(file: 0, line: 1)
        func receipt(_ total: Int64) -> Receipt {
            Receipt(
                currency: .euro, at: Instant(seconds: 0), lines: [], cartPromotion: nil, subtotal: total,
                itemDiscount: 0, cartDiscount: 0, warnings: [])
        }
        tally.add(place, before: .success(receipt(10_000)), after: .success(receipt(9_750)))
        let report = DiffReport(tally, files: ["c"], old: [], new: [], currency: .euro)
        #expect(report.percent == "-2.50")
        #expect(report.exceeds(revenueChangeMillionths: 2_490_000))
        #expect(!report.exceeds(revenueChangeMillionths: 2_500_000))  // exactly 2.5 %: not beyond
        var zero = DiffTally()
        zero.add(place, before: .success(receipt(0)), after: .success(receipt(0)))
        #expect(!DiffReport(zero, files: ["c"], old: [], new: [], currency: .euro).exceeds(revenueChangeMillionths: 0))
        zero.add(place, before: .success(receipt(0)), after: .success(receipt(1)))
        let fromZero = DiffReport(zero, files: ["c"], old: [], new: [], currency: .euro)
        #expect(fromZero.percent == nil)
        #expect(fromZero.exceeds(revenueChangeMillionths: 1_000_000_000))
    }

    @Test("percent rounds half away from zero")
    func rounding() {
        func percent(_ before: Int64, _ after: Int64) -> String? {
            var tally = DiffTally()
            let r = { (t: Int64) in
                Receipt(
                    currency: .euro, at: Instant(seconds: 0), lines: [], cartPromotion: nil, subtotal: t,
                    itemDiscount: 0, cartDiscount: 0, warnings: [])
            }
            tally.add(CartPlace(file: 0, line: 1), before: .success(r(before)), after: .success(r(after)))
            return DiffReport(tally, files: ["c"], old: [], new: [], currency: .euro).percent
        }
        #expect(percent(80_000, 80_004) == "0.01")  // +0.005 % → 0.01
        #expect(percent(80_000, 79_996) == "-0.01")  // −0.005 % → −0.01
        #expect(percent(80_000, 80_003) == "0.00")  // +0.00375 %
        #expect(percent(3, 4) == "33.33")
        #expect(percent(3, 2) == "-33.33")
        #expect(percent(1, 3) == "200.00")
    }
}
