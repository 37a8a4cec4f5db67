import Platform
import Presenters

/// The presenters' views, on a terminal (or a pipe): they only lay out what they are told.
final class TerminalProductListView: ProductListView {
    let out: OutputStream
    init(out: OutputStream) { self.out = out }

    func show(products: [ProductItem], cartPromotions: [String]) {
        out.write("\nProducts\n")
        let nameWidth = products.map { $0.name.count }.max() ?? 0
        let priceWidth = products.map { $0.price.count }.max() ?? 0
        for (index, product) in products.enumerated() {
            var line = "  \(index + 1). " + pad(product.name, nameWidth) + "  " + pad(product.price, priceWidth, right: true)
            if !product.promotions.isEmpty { line += "   " + product.promotions.joined(separator: "; ") }
            out.write(line + "\n")
        }
        for promotion in cartPromotions { out.write("  Cart: \(promotion)\n") }
    }

    func showAdded(_ message: String) { out.write(message + "\n") }
    func showError(_ message: String) { out.write("! \(message)\n") }
}

final class TerminalCartView: CartView {
    let out: OutputStream
    private(set) var checkoutEnabled = false
    init(out: OutputStream) { self.out = out }

    func show(cart: ReceiptScreen) {
        out.write("\nCart\n")
        for (index, line) in cart.lines.enumerated() {
            out.write("  \(index + 1). \(line.name)  \(line.quantity) × \(line.unitPrice)  \(line.subtotal)\n")
            for discount in line.discounts { out.write("       \(discount)\n") }
        }
        if let cartDiscount = cart.cartDiscount { out.write("  \(cartDiscount)\n") }
        out.write("  Total \(cart.total)" + (cart.saved.map { " (you save \($0))" } ?? "") + "\n")
        for warning in cart.warnings { out.write("  warning: \(warning)\n") }
        for hint in cart.hints { out.write("  \(hint)\n") }
    }

    func showEmpty(_ message: String) { out.write("\n\(message)\n") }
    func setCheckoutEnabled(_ enabled: Bool) { checkoutEnabled = enabled }
    func showError(_ message: String) { out.write("! \(message)\n") }
}

final class TerminalCheckoutView: CheckoutView {
    let out: OutputStream
    init(out: OutputStream) { self.out = out }

    func show(receipt: ReceiptScreen) {
        out.write("\nCheckout\n")
        for line in receipt.lines {
            out.write("  \(line.code)  \(line.name)  \(line.quantity) × \(line.unitPrice) = \(line.subtotal)\n")
            for discount in line.discounts { out.write("      \(discount)\n") }
        }
        out.write("  Subtotal \(receipt.subtotal)\n")
        if let cartDiscount = receipt.cartDiscount { out.write("  \(cartDiscount)\n") }
        if let saved = receipt.saved { out.write("  Discounts -\(saved)\n") }
        out.write("  Total \(receipt.total)\n")
        for warning in receipt.warnings { out.write("  warning: \(warning)\n") }
    }

    func showEmpty(_ message: String) { out.write("\n\(message)\n") }
    func showError(_ message: String) { out.write("! \(message)\n") }
}

final class TerminalPaymentView: PaymentView {
    let out: OutputStream
    init(out: OutputStream) { self.out = out }

    func showProcessing() { out.write("Processing payment…\n") }
    func showApproved(orderNumber: Int, total: String, card: String) { out.write("Payment approved: order #\(orderNumber), \(total), card \(card).\n") }
    func showDeclined(_ reason: String) { out.write("Payment declined: \(reason). Your cart is kept.\n") }
    func showInvalidCard(_ problem: String) { out.write("! Invalid card: \(problem).\n") }
    func showEmptyCart(_ message: String) { out.write("\(message)\n") }
    func showError(_ message: String) { out.write("! \(message)\n") }
}
