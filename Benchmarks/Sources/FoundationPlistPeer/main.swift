import Foundation

// The peer a Swift user would write: PropertyListDecoder into Decodable structs.
// Usage: FoundationPlistPeer Promotions.plist — prints the number of promotions.
struct Promotion: Decodable {
    var id: String?, name: String, type: String, code: String?, codes: [String]?, quantity: Int?, paid: Int?
    var price: Double?, percent: Double?, amount: String?, minimum: Double?, start: Date?, end: Date?, priority: Int?, coupon: String?
}
struct File: Decodable { var currency: String?; var promotions: [Promotion] }
let file = try PropertyListDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1])))
print(file.promotions.count)
