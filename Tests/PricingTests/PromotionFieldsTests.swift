import Pricing
import Testing

/// `Promotion` keeps its selectors, customer groups and limits apart from its other fields: they
/// read and write like stored properties, copies stay independent, equality is by value.
@Suite("Promotion's selection fields")
struct PromotionFieldsTests {
    let plain = Promotion(
        id: "p", name: "P", rule: .percent(PercentOff(minimumQuantity: 1, hundredths: 1000)), codes: ["MUG"])

    @Test("set and read back one by one; set back to nil, equal to a promotion that never had them")
    func roundTrip() {
        var promotion = plain
        promotion.productSelectors = [ProductSelector(brands: ["Cabify"])]
        promotion.targetSelectors = [ProductSelector(tags: ["sale"])]
        promotion.customerGroups = ["staff"]
        promotion.uses = 3
        promotion.usesPerCustomer = 1
        #expect(promotion.productSelectors == [ProductSelector(brands: ["Cabify"])])
        #expect(promotion.targetSelectors == [ProductSelector(tags: ["sale"])])
        #expect(promotion.customerGroups == ["staff"])
        #expect(promotion.uses == 3)
        #expect(promotion.usesPerCustomer == 1)
        #expect(promotion.isLimited)
        #expect(promotion != plain)
        // A failed expectation on promotions shows these fields.
        #expect(String(describing: promotion).contains(#"customerGroups: Optional(["staff"])"#))
        promotion.usesPerCustomer = nil
        #expect(promotion.isLimited)
        promotion.uses = nil
        #expect(!promotion.isLimited)
        promotion.productSelectors = nil
        promotion.targetSelectors = nil
        #expect(promotion != plain)
        promotion.customerGroups = nil
        #expect(promotion == plain)
    }

    @Test("a copy changed leaves the original as it was; equal fields, equal promotions, however built")
    func copies() {
        let original = Promotion(
            id: "p", name: "P", rule: .percent(PercentOff(minimumQuantity: 1, hundredths: 1000)), codes: ["MUG"],
            customerGroups: ["staff"], uses: 5)
        var copy = original
        copy.customerGroups = ["vip"]
        copy.uses = nil
        #expect(original.customerGroups == ["staff"])
        #expect(original.uses == 5)
        #expect(copy.customerGroups == ["vip"])
        #expect(copy.uses == nil)
        var rebuilt = plain
        rebuilt.uses = 5
        rebuilt.customerGroups = ["staff"]
        #expect(rebuilt == original)
        #expect(Promotion(id: "p", name: "P", rule: plain.rule, codes: ["MUG"], uses: nil) == plain)
    }
}
