import Foundation

// The peer a Swift user would write: JSONDecoder, a Dictionary of counts, Double prices.
// Usage: FoundationCartPeer Products.json cart.json — prints the cart's total.
struct Product: Decodable { var code: String; var price: Double }
struct Catalog: Decodable { var products: [Product] }
enum Item: Decodable {
    case code(String)
    case object(code: String, quantity: Int?)
    enum Keys: String, CodingKey { case code, quantity }
    init(from decoder: Decoder) throws {
        if let code = try? decoder.singleValueContainer().decode(String.self) {
            self = .code(code)
            return
        }
        let object = try decoder.container(keyedBy: Keys.self)
        self = .object(code: try object.decode(String.self, forKey: .code), quantity: try object.decodeIfPresent(Int.self, forKey: .quantity))
    }
}
let arguments = CommandLine.arguments
let catalog = try JSONDecoder().decode(Catalog.self, from: Data(contentsOf: URL(fileURLWithPath: arguments[1])))
let cents = Dictionary(uniqueKeysWithValues: catalog.products.map { ($0.code, Int(($0.price * 100).rounded())) })
var counts: [String: Int] = [:]
for item in try JSONDecoder().decode([Item].self, from: Data(contentsOf: URL(fileURLWithPath: arguments[2]))) {
    switch item {
    case .code(let code): counts[code, default: 0] += 1
    case .object(let code, let quantity): counts[code, default: 0] += quantity ?? 1
    }
}
let total = counts.reduce(0) { $0 + cents[$1.key]! * $1.value }
print("\(total / 100).\(String(format: "%02d", total % 100))")
