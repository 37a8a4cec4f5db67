import Foundation
import FoundationPeers

// The peer a Swift user would write: JSONDecoder, a Dictionary of counts, Double prices.
// Usage: FoundationCartPeer Products.json cart.json — prints the cart's total.
struct Product: Decodable {
    var code: String
    var price: Double
}
struct Catalog: Decodable { var products: [Product] }
let arguments = CommandLine.arguments
let catalog = try JSONDecoder().decode(Catalog.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
let cents = Dictionary(uniqueKeysWithValues: catalog.products.map { ($0.code, Int(($0.price * 100).rounded())) })
let counts = CartItemRecord.counts(
    try JSONDecoder().decode([CartItemRecord].self, from: Data(contentsOf: URL(fileURLWithPath: arguments[2]))))
let total = counts.reduce(0) { $0 + cents[$1.key]! * $1.value }
print("\(total / 100).\(String(format: "%02d", total % 100))")
