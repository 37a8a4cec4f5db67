import Testing

@testable import Pricing

@Suite("Lines of a cart by product")
struct CartLineIndexTests {
    @Test("short carts searched, long ones in a dense or a hash table: every product found on its line")
    func everyLayout() {
        var state: UInt64 = 77
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var modes: Set<String> = []
        for round in 0..<600 {
            // Catalogs from 20 to 200,000 products, carts from 0 to 400 distinct products.
            let productCount = [20, 1_000, 200_000][round % 3]
            let lineCount = min(productCount, next() % 400)
            var products = Set<Int>()
            while products.count < lineCount { products.insert(next() % productCount) }
            var order = products.sorted()
            for i in order.indices.reversed() where i > 0 { order.swapAt(i, next() % (i + 1)) }
            let lines = order.map { Cart.Line(product: $0, quantity: Int64(1 + next() % 5)) }
            let index = CartLineIndex(lines, productCount: productCount)
            modes.insert(lineCount <= 16 ? "search" : productCount <= 32 * lineCount ? "dense" : "hashed")
            var expected = [Int: Int]()
            for (position, line) in lines.enumerated() { expected[line.product] = position }
            for _ in 0..<200 {
                let product = next() % productCount
                #expect(index.line(of: product) == expected[product])
                #expect(index.quantity(of: product) == expected[product].map { lines[$0].quantity } ?? 0)
            }
            for line in lines { #expect(index.line(of: line.product).map { lines[$0] } == line) }
        }
        #expect(modes == ["search", "dense", "hashed"])
    }
}
