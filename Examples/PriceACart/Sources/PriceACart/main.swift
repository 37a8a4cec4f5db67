import CheckoutKit
import Foundation

// PriceACart CATALOG PROMOTIONS CART-JSON: the cart's receipt, as `checkout price` writes it.
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: PriceACart CATALOG PROMOTIONS CART-JSON\n".utf8))
    exit(64)
}
do {
    let checkout = try Checkout(catalog: arguments[0], promotions: arguments[1])
    print(try checkout.text(cart: arguments[2]), terminator: "")
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(65)
}
