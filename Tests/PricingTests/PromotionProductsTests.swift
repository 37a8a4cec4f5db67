import ReferenceModels
import SeededRandom
import Testing

@testable import Pricing

/// The promotions' products resolved once (`PromotionProducts`): in parts, as a large file is, the
/// same as in one; and codes as the contract says (docs/selectors.md): in the order named, each
/// once, codes the catalog lacks left out.
@Suite("The promotions' products, resolved in parts")
struct PromotionProductsTests {
    static let brands = ["Acme", "Zeta", nil]
    static let tags = ["sale", "new", "eco"]

    /// A catalog of `count` products P0…, with brands and tags in turn.
    static func catalog(_ count: Int) -> Catalog {
        try! Catalog(
            products: (0..<count).map {
                Product(
                    code: "P\($0)", name: "P\($0)", price: Int64(100 + $0), brand: brands[$0 % 3],
                    tags: [tags[$0 % 3], tags[($0 / 3) % 3]])
            })
    }

    /// Codes from the catalog, with repeats and one it lacks (P<count>).
    static func codes(_ random: inout SplitMix64, products: Int) -> [String] {
        (0..<random.draw(1...4)).map { _ in "P\(random.draw(0...products))" }
    }

    static func selector(_ random: inout SplitMix64, products: Int) -> ProductSelector {
        switch random.draw(0...3) {
        case 0: ProductSelector(brands: ["Acme"])
        case 1: ProductSelector(tags: [tags[random.draw(0...2)]], excludeBrands: ["Zeta"])
        case 2: ProductSelector(codes: codes(&random, products: products))
        default: ProductSelector(excludeTags: ["eco"])
        }
    }

    /// Random promotions: codes or selectors, with targets by codes or by selectors.
    static func promotions(_ random: inout SplitMix64, count: Int, products: Int) -> [Promotion] {
        (0..<count).map { index in
            var promotion = Promotion(
                id: "p\(index)", name: "p\(index)", rule: .percent(minimumQuantity: 1, hundredths: 1000),
                codes: codes(&random, products: products))
            switch random.draw(0...5) {
            case 0: promotion.targets = codes(&random, products: products)
            case 1: promotion.productSelectors = [selector(&random, products: products)]
            case 2:
                promotion.productSelectors = [selector(&random, products: products)]
                promotion.targets = codes(&random, products: products)
            case 3: promotion.targetSelectors = [selector(&random, products: products)]
            default: break
            }
            return promotion
        }
    }

    @Test("in parts of any size, run in any order, the same products and rewards as in one part")
    func partsAgree() {
        var random = SplitMix64(seed: 1_125)
        for round in 0..<500 {
            let products = random.draw(1...12)
            let catalog = Self.catalog(products)
            let promotions = Self.promotions(&random, count: random.draw(0...40), products: products)
            let whole = PromotionProducts(promotions, catalog: catalog)
            let width = random.draw(2...5)
            let parted = PromotionProducts(
                promotions, catalog: catalog,
                parts: round % 2 == 0 ? PartRunner.backwards(width: width) : PartRunner.atOnce(width: width),
                promotionsPerPart: random.draw(1...6))
            for index in promotions.indices {
                #expect(parted.products(of: index) == whole.products(of: index), "round \(round), promotion \(index)")
                #expect(parted.rewards(of: index) == whole.rewards(of: index), "round \(round), promotion \(index)")
                #expect(parted.concerned(by: index) == whole.concerned(by: index), "round \(round)")
            }
        }
    }

    @Test("the products and rewards a plain reading of codes and selectors gives; one selector's list shared")
    func plainReading() {
        var random = SplitMix64(seed: 2_611)
        var shared = 0
        for round in 0..<500 {
            let products = random.draw(1...12)
            let catalog = Self.catalog(products)
            let promotions = Self.promotions(&random, count: random.draw(0...40), products: products)
            let width = random.draw(1...4)
            let resolved = PromotionProducts(
                promotions, catalog: catalog, parts: PartRunner.backwards(width: width),
                promotionsPerPart: random.draw(1...8))
            /// Codes as ids, in order, each once, those the catalog lacks left out.
            func ids(_ codes: [String]) -> [ProductID] {
                var seen = Set<ProductID>()
                return codes.compactMap { catalog.productID(for: $0) }.filter { seen.insert($0).inserted }
            }
            for (index, promotion) in promotions.enumerated() {
                let plain = NaiveSelection.products(of: promotion, in: catalog)
                #expect(resolved.products(of: index) == ids(plain.codes), "round \(round), promotion \(index)")
                #expect(resolved.productCount(of: index) == ids(plain.codes).count, "round \(round)")
                #expect(resolved.rewards(of: index) == plain.targets.map(ids), "round \(round), promotion \(index)")
                // Promotions with products on one selector list share them; the others have their own.
                guard resolved.productCount(of: index) > 0 else { continue }
                #expect((resolved.sharedProducts(of: index) != nil) == (promotion.productSelectors != nil))
                for other in promotions.indices.prefix(index)
                where promotion.productSelectors != nil && resolved.productCount(of: other) > 0 {
                    let same = promotions[other].productSelectors == promotion.productSelectors
                    if same { shared += 1 }
                    #expect(
                        (resolved.sharedProducts(of: other) == resolved.sharedProducts(of: index)) == same,
                        "round \(round), promotions \(other) and \(index)")
                }
            }
        }
        #expect(shared > 1_000)
    }

    @Test("codes in the order named, each once, those the catalog lacks left out; targets apart")
    func codesAsNamed() {
        let catalog = Self.catalog(5)
        var buy = Promotion(
            id: "b", name: "b", rule: .percent(minimumQuantity: 1, hundredths: 1000),
            codes: ["P3", "P9", "P1", "P3", "P0"])
        buy.targets = ["P4", "P4", "P7", "P2"]
        let plain = Promotion(id: "c", name: "c", rule: .combo(groupSize: 2, paid: 1), codes: ["P9"])
        // Split after each promotion: three parts.
        let products = PromotionProducts(
            [buy, plain, buy], catalog: catalog, parts: PartRunner.backwards(width: 3), promotionsPerPart: 1)
        for index in [0, 2] {
            #expect(products.products(of: index) == [3, 1, 0])
            #expect(products.rewards(of: index) == [4, 2])
            #expect(products.concerned(by: index) == [3, 1, 0, 4, 2])
        }
        #expect(products.products(of: 1) == [])
        #expect(products.rewards(of: 1) == nil)
    }

    @Test("one part for a file below twice the part size, as many as run at once above")
    func partCount() {
        let two = PartRunner(width: 2) { count, body in for part in 0..<count { body(part) } }
        #expect(two.partCount(32_767, eachAtLeast: 16_384) == 1)
        #expect(two.partCount(32_768, eachAtLeast: 16_384) == 2)
        #expect(two.partCount(1_000_000, eachAtLeast: 16_384) == 2)
        #expect(two.partCount(0, eachAtLeast: 16_384) == 1)
        #expect(PartRunner.oneAfterAnother.partCount(1_000_000, eachAtLeast: 1) == 1)
    }

    @Test("collect returns each part's result in part order, however the parts ran")
    func collect() {
        #expect(PartRunner.backwards(width: 4).collect(5) { $0 * $0 } == [0, 1, 4, 9, 16])
        #expect(PartRunner.oneAfterAnother.collect(1) { $0 + 7 } == [7])
        #expect(PartRunner.oneAfterAnother.collect(0) { $0 }.isEmpty)
    }
}
