import Foundation
import FoundationPeers

// The peer a Swift user would write: PropertyListDecoder into Decodable structs.
// Usage: FoundationPlistPeer Promotions.plist — prints the number of promotions.
let file = try PropertyListDecoder().decode(
    PromotionsRecord.self, from: Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1])))
print(file.promotions.count)
