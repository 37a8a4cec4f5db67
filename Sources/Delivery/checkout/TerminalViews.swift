import Platform
import Presenters
import Receipts

/// A view writing to a terminal (or a pipe). Every view shows errors alike: `! MESSAGE`, its control
/// characters escaped as a last defence (what presenters put in messages from input is escaped already).
protocol TerminalScreen: AnyObject {
    var out: OutputStream { get }
}

extension TerminalScreen {
    func showError(_ message: String) { out.write("! \(message.withoutControlCharacters)\n") }
}

/// The presenters' views, on a terminal (or a pipe): they only lay out what they are told.
final class TerminalProductListView: ProductListView, TerminalScreen {
    let out: OutputStream
    init(out: OutputStream) { self.out = out }

    func show(products: [ProductItem], cartPromotions: [String]) {
        out.write("\nProducts\n")
        let width = Terminal.style.width.map { $0 - 2 }
        // Name, price and deals on one row when they fit; else each deal on a row of its own under
        // its product, as wide as the screen. Names give way before prices, which are never cut.
        var table = TextTable([.left, .right, .left], stretchable: 0)
        for (index, product) in products.enumerated() {
            table.add([
                "\(index + 1). " + product.name, product.price,
                product.promotions.isEmpty ? "" : " " + product.promotions.joined(separator: "; ")
            ])
        }
        let natural = table.widths(fitting: nil)
        guard let width, natural.reduce(0, +) + table.gap.count * 2 > width else {
            for line in table.render(width: width) { out.write("  " + line + "\n") }
            return showCartPromotions(cartPromotions)
        }
        var rows = TextTable([.left, .right], stretchable: 0)
        var deals: [[String]] = []
        for (index, product) in products.enumerated() {
            rows.add(["\(index + 1). " + product.name, product.price])
            deals.append(product.promotions)
        }
        let indent = "\(products.count). ".count
        for (line, deals) in zip(rows.render(width: width), deals) {
            out.write("  " + line + "\n")
            for deal in deals {
                out.write("  " + TextTable.fit(String(repeating: " ", count: indent) + deal, width) + "\n")
            }
        }
        showCartPromotions(cartPromotions)
    }

    private func showCartPromotions(_ cartPromotions: [String]) {
        for promotion in cartPromotions {
            out.write(TextTable.fit("  Cart: \(promotion)", Terminal.style.width ?? .max) + "\n")
        }
    }

    func showAdded(_ message: String) { out.write(message + "\n") }
}

final class TerminalCartView: CartView, TerminalScreen {
    let out: OutputStream
    private(set) var checkoutEnabled = false
    init(out: OutputStream) { self.out = out }

    func show(cart: ReceiptScreen) {
        out.write("\nCart\n")
        let style = Terminal.style
        // Lines in columns: number, name, quantity × unit price (the unit prices aligned), subtotal;
        // each discount under its line.
        var table = TextTable([.right, .left, .right, .right], stretchable: 1)
        let priceWidth = cart.lines.map(\.unitPrice.columns).max() ?? 0
        for (index, line) in cart.lines.enumerated() {
            table.add([
                "\(index + 1).", line.name,
                "\(line.quantity) × " + TextTable.pad(line.unitPrice, priceWidth, right: true),
                line.subtotal
            ])
            // The amount in the amounts' column, which is never shortened; the name may be.
            for discount in line.discounts { table.add(["", "  " + discount.label, "", discount.amount ?? ""]) }
        }
        for line in table.render(width: style.width.map { $0 - 2 }) { out.write("  " + line + "\n") }
        if let cartDiscount = cart.cartDiscount {
            out.write("  " + style.paint(cartDiscount.fitted(style.width.map { $0 - 2 }), .saving) + "\n")
        }
        if cart.taxAddedToTotal { for tax in cart.taxes { out.write("  \(tax)\n") } }
        out.write(
            "  " + style.paint("Total \(cart.total)", .total)
                + (cart.saved.map { " " + style.paint("(you save \($0))", .saving) } ?? "") + "\n")
        if !cart.taxAddedToTotal { for tax in cart.taxes { out.write("  \(tax)\n") } }
        for warning in cart.warnings { out.write("  " + style.paint("warning: \(warning)", .warning) + "\n") }
        for hint in cart.hints { out.write("  \(hint)\n") }
    }

    func showEmpty(_ message: String) { out.write("\n\(message)\n") }
    func setCheckoutEnabled(_ enabled: Bool) { checkoutEnabled = enabled }
}

final class TerminalCheckoutView: CheckoutView, TerminalScreen {
    let out: OutputStream
    init(out: OutputStream) { self.out = out }

    func show(receipt: ReceiptScreen) {
        out.write("\nCheckout\n")
        var table = TextTable([.left, .left, .right, .right], stretchable: 1)
        let priceWidth = receipt.lines.map(\.unitPrice.columns).max() ?? 0
        for line in receipt.lines {
            table.add([
                line.code, line.name, "\(line.quantity) × " + TextTable.pad(line.unitPrice, priceWidth, right: true),
                line.subtotal
            ])
            // The amount in the amounts' column, which is never shortened; the name may be.
            for discount in line.discounts { table.add(["", "  " + discount.label, "", discount.amount ?? ""]) }
        }
        for line in table.render(width: Terminal.style.width.map { $0 - 2 }) { out.write("  " + line + "\n") }
        // Each row adds up to the total: the item discounts, then the cart promotion's, then the
        // tax when prices exclude it; what was saved in all is said after the total.
        out.write("  Subtotal \(receipt.subtotal)\n")
        if let itemDiscount = receipt.itemDiscount { out.write("  Item discounts \(itemDiscount)\n") }
        if let cartDiscount = receipt.cartDiscount {
            out.write("  " + cartDiscount.fitted(Terminal.style.width.map { $0 - 2 }) + "\n")
        }
        if receipt.taxAddedToTotal { for tax in receipt.taxes { out.write("  \(tax)\n") } }
        out.write("  Total \(receipt.total)\n")
        if !receipt.taxAddedToTotal { for tax in receipt.taxes { out.write("  \(tax)\n") } }
        if let saved = receipt.saved { out.write("  You save \(saved).\n") }
        for warning in receipt.warnings { out.write("  warning: \(warning)\n") }
    }

    func showEmpty(_ message: String) { out.write("\n\(message)\n") }
}

final class TerminalPaymentView: PaymentView, TerminalScreen {
    let out: OutputStream
    init(out: OutputStream) { self.out = out }

    func showProcessing() { out.write("Processing payment…\n") }
    func showApproved(orderNumber: Int, total: String, card: String) {
        out.write("Payment approved: order #\(orderNumber), \(total), card \(card).\n")
    }
    func showDeclined(_ reason: String) {
        out.write("Payment declined: \(reason.withoutControlCharacters). Your cart is kept.\n")
    }
    func showInvalidCard(_ problem: String) { out.write("! Invalid card: \(problem).\n") }
    func showEmptyCart(_ message: String) { out.write("\(message)\n") }
    func showRecovered(orderNumber: Int, total: String, card: String) {
        out.write(
            "Recovered order #\(orderNumber): an interrupted payment had charged \(total) to card \(card); it is recorded now.\n"
        )
    }
}

extension ReceiptScreen.Discount {
    /// `label: amount` within `width` columns: the label shortened with "…", the amount never cut.
    func fitted(_ width: Int?) -> String {
        guard let amount else { return width.map { TextTable.fit(label, $0) } ?? label }
        guard let width else { return description }  // piped: the whole text
        return TextTable.fit(label + ":", max(4, width - amount.columns - 1)) + " " + amount
    }
}
