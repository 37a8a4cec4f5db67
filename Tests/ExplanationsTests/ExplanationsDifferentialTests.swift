import Explanations
import Pricing
import ReferenceModels
import SeededRandom
import Testing

@Suite("Explanations against the reference model (docs/explanations.md)")
struct ExplanationsDifferentialTests {
    /// An explanation as the reference writes it.
    func text(_ e: Explanation, digits: Int) -> String {
        let head = "\(e.id) \(e.status.rawValue)"
        switch e.status {
        case .notStarted: return head + " \(e.start!)"
        case .ended: return head + " \(e.end!)"
        case .applied: return head + " " + Amount.format(e.discount!, minorDigits: digits)
        case .outranked: return head + " " + (e.by ?? "-")
        case .belowThreshold:
            switch e.missing! {
            case .units(let code, let units): return head + " \(code) \(units)"
            case .amount(let amount): return head + " amount " + Amount.format(amount, minorDigits: digits)
            }
        case .disabled, .needsCoupon, .notEligible, .exhausted, .noDiscount: return head
        }
    }

    @Test("the same statuses, extras and hints on thousands of random shops and carts, v2 and v3")
    func differential() throws {
        var random = SplitMix64(seed: 11_2026)
        var statuses: [Explanation.Status: Int] = [:]
        var hinted = 0
        var selectorMissing = 0
        var partialCartMissing = 0
        // The v2 shops as before, then as many v3 shops (selectors, customers, a ledger).
        for shopIndex in 0..<3_000 {
            let shop = RandomV2Shop(random: &random, v3: shopIndex >= 1_500)
            var engine = PricingEngine(rules: RuleSet(promotions: shop.promotions, catalog: shop.catalog))
            engine.ledger = shop.ledger
            let explainer = Explainer(engine: engine)
            let reference = ReferenceExplanations(
                model: ReferenceModel(catalog: shop.catalog, promotions: shop.promotions, ledger: shop.ledger))
            for cartIndex in 0..<3 {
                let cart = shop.cart(random: &random, large: false)
                let (receipt, explanations) = try explainer.explain(cart, at: shop.instant, now: shop.instant)
                let got = explanations.map { text($0, digits: 2) }
                let want = reference.explain(cart, at: shop.instant)
                #expect(
                    got == want,
                    "shop \(shopIndex) cart \(cartIndex): \(shop.catalog.products) \(shop.promotions) \(cart) \(String(describing: shop.ledger))"
                )
                let hints = explainer.hints(for: cart, receipt: receipt, explanations: explanations).map {
                    "\($0.code) \($0.units) \($0.saving)"
                }
                #expect(
                    hints == reference.hints(cart, at: shop.instant),
                    "hints, shop \(shopIndex) cart \(cartIndex): \(shop.promotions) \(cart)")
                for e in explanations {
                    statuses[e.status, default: 0] += 1
                    guard e.status == .belowThreshold, shop.promotions[e.promotion].productSelectors != nil else {
                        continue
                    }
                    if shop.promotions[e.promotion].rule.isCartRule {
                        partialCartMissing += 1
                    } else {
                        selectorMissing += 1
                    }
                }
                if !hints.isEmpty { hinted += 1 }
                if got != want { return }
            }
        }
        // Every status is exercised.
        for status in Explanation.Status.allCases {
            #expect(statuses[status, default: 0] > 20, "\(status): \(statuses[status, default: 0])")
        }
        #expect(hinted > 500)
        #expect(selectorMissing > 200)
        #expect(partialCartMissing > 100)
        print(
            "explanations: \(statuses.sorted { $0.key.rawValue < $1.key.rawValue }), \(selectorMissing) missing of selector promotions, \(partialCartMissing) of cart promotions on part of the cart"
        )
    }
}
