import Testing

@testable import Pricing

/// A batch prices cart after cart in the storage of the last one's lines: nothing allocated per
/// cart, and nothing of the last cart left in the next.
@Suite("Storage reused from cart to cart")
struct StorageReuseTests {
    static func base(_ lines: [Cart.Line]) -> UnsafeRawPointer? {
        lines.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test("recycled cart lines: two buffers take turns, each cart's lines exactly its own")
    func mergerRecycles() {
        var merger = CartLineMerger(productCount: 10)
        var bases: [UnsafeRawPointer?] = []
        for n in 0..<8 {
            // Cart n: products n % 10 and (n + 3) % 10, the first twice.
            _ = merger.add(n % 10, quantity: 1)
            _ = merger.add((n + 3) % 10, quantity: 2)
            _ = merger.add(n % 10, quantity: 4)
            let lines = merger.takeLines()
            #expect(lines == [Cart.Line(product: n % 10, quantity: 5), Cart.Line(product: (n + 3) % 10, quantity: 2)])
            bases.append(Self.base(lines))
            merger.recycle(lines)
        }
        // From the third cart on, each cart's lines are in the storage of the cart before the last.
        for n in 2..<8 { #expect(bases[n] == bases[n - 2], "cart \(n)") }
        #expect(bases[2] != bases[3])
    }

    @Test("lines still held elsewhere are not reused")
    func heldLinesAreLeftAlone() {
        var merger = CartLineMerger(productCount: 4)
        _ = merger.add(1, quantity: 1)
        let first = merger.takeLines()
        merger.recycle(first)
        _ = merger.add(2, quantity: 1)
        let second = merger.takeLines()
        merger.recycle(second)
        _ = merger.add(3, quantity: 7)
        let third = merger.takeLines()
        // `first` is still held here: the third cart's lines are in other storage, `first` intact.
        #expect(first == [Cart.Line(product: 1, quantity: 1)])
        #expect(third == [Cart.Line(product: 3, quantity: 7)])
        #expect(Self.base(third) != Self.base(first))
    }

    @Test("receipt lines priced in the last receipt's storage")
    func receiptLinesReused() throws {
        let rules = RuleSet(promotions: [voucher2x1, tshirt3Plus], catalog: store)
        let engine = PricingEngine(rules: rules)
        let active = ActiveRules(rules: rules, at: noon)
        var cache = BestItemRuleCache(productCount: store.products.count)
        var spare: [Receipt.Line] = []
        var previous: UnsafeRawPointer?
        for (n, codes) in [["VOUCHER", "VOUCHER", "MUG"], ["TSHIRT"], ["TSHIRT", "TSHIRT", "TSHIRT", "MUG"]]
            .enumerated()
        {
            let receipt = try engine.price(
                cart(codes), at: noon, now: noon, active: active, cache: &cache, spareLines: &spare)
            #expect(spare.isEmpty)
            let base = receipt.lines.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
            if n > 0 { #expect(base == previous, "receipt \(n)") }
            previous = base
            #expect(receipt == (try price(cart(codes), [voucher2x1, tshirt3Plus])))
            spare = receipt.lines
        }
    }

    @Test("coupons: repeats in any letter case count once, in short and long lists")
    func presentedCoupons() {
        let rules = RuleSet(
            promotions: [percent("spring", 2000, codes: ["MUG"], coupon: "Spring")], catalog: store)
        let engine = PricingEngine(rules: rules)
        let short = engine.presentedCoupons(["spring", "X", "SPRING", "x", "Spring"])
        #expect(short.map(\.text) == ["spring", "X"])
        #expect(short.map(\.id) == [0, -1])
        let long = engine.presentedCoupons((0..<12).map { "c\($0 % 5)" } + ["SPRING", "Spring"])
        #expect(long.map(\.text) == ["c0", "c1", "c2", "c3", "c4", "SPRING"])
        #expect(long.map(\.id) == [-1, -1, -1, -1, -1, 0])
        #expect(asciiUppercased("spring-ÄbC") == "SPRING-ÄBC")
        #expect(
            asciiUppercased("a much longer coupon code, over fifteen bytes")
                == "A MUCH LONGER COUPON CODE, OVER FIFTEEN BYTES")
        #expect(asciiUppercased("ÉTÉ") == "ÉTÉ")
    }
}
