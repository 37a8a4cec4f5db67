import Testing

@testable import Pricing

/// The ledger's counts (docs/store.md, "Usage limits"): customer ids compared byte for byte, and an
/// order's redemptions taken out of the counts for an order the next payment will release.
@Suite("Redemption counts")
struct RedemptionCountsTests {
    static let composed = "Jos\u{E9}"
    static let decomposed = "Jose\u{301}"

    @Test("two spellings of one name are two customers")
    func customersByBytes() {
        #expect(Self.composed == Self.decomposed)
        var counts = RedemptionCounts()
        counts.ordersByCustomer[ExactText(Self.composed)] = ["welcome": 1]
        counts.ordersByCustomer[ExactText(Self.decomposed)] = ["welcome": 2]
        #expect(counts.ordersByCustomer.count == 2)
        #expect(counts.orders(ofCustomer: Self.composed) == ["welcome": 1])
        #expect(counts.orders(ofCustomer: Self.decomposed) == ["welcome": 2])
        #expect(counts.orders(ofCustomer: "C-17") == [:])
    }

    @Test("release takes one order's redemptions out: all customers and its own customer's, down to none")
    func release() {
        var counts = RedemptionCounts(
            orders: ["first-5": 3, "welcome": 1],
            ordersByCustomer: [ExactText(Self.composed): ["welcome": 1], ExactText(Self.decomposed): ["welcome": 1]])
        // An order of the decomposed José that redeemed both limited promotions and an unlimited one.
        counts.release(["first-5", "welcome", "unlimited"], customer: Self.decomposed)
        #expect(counts.orders == ["first-5": 2])
        #expect(counts.ordersByCustomer == [ExactText(Self.composed): ["welcome": 1]])
        // An anonymous order: only the counts of all customers.
        counts.release(["first-5"], customer: nil)
        #expect(counts.orders == ["first-5": 1])
        #expect(counts.ordersByCustomer == [ExactText(Self.composed): ["welcome": 1]])
        // A customer whose counts were not read (another customer's ledger): nothing to take.
        counts.release(["first-5", "welcome"], customer: "C-17")
        #expect(counts.orders == [:])
        #expect(counts.ordersByCustomer == [ExactText(Self.composed): ["welcome": 1]])
    }
}
