import Explanations
import Pricing
import StrictJSON

/// The receipt for people: a till-style table with code, name, quantity, unit price and line
/// total, a row for each promotion of a line with what it saved, then subtotal, discounts and total.
public enum ReceiptText {
    /// The receipt, then its near-miss `hints`, then, when given, the `explanations` in words. With a
    /// `style` width, names are shortened with "…" to fit it (amounts never are); without one (piped
    /// output), it fits ``pipedWidth`` columns with long names and lines continued on the next line,
    /// never cut. With colour, the total, savings and warnings stand out.
    public static func render(
        _ receipt: Receipt, hints: [Hint] = [], explanations: [Explanation]? = nil, style: TextStyle = .plain
    ) -> String {
        let money = MoneyStyle(currency: receipt.currency)
        var rows: [[String]] = []
        for line in receipt.lines {
            rows.append([
                line.code.forDisplay(), line.name.forDisplay(), "\(line.quantity) ×", money.format(line.unitPrice),
                money.format(line.subtotal)
            ])
            // A line's only promotion over all its units reads as in v1; several, or part of the
            // line, say how many units each used.
            let whole = line.promotions.count == 1 && line.promotions[0].units == line.quantity
            for promotion in line.promotions {
                if promotion.discount == 0 {
                    rows.append(["", "  \(promotion.units) part of \"\(promotion.name.forDisplay())\"", "", "", ""])
                } else {
                    let units = whole ? "" : ", \(promotion.units) \(promotion.units == 1 ? "unit" : "units")"
                    rows.append([
                        "", "  \(promotion.name.forDisplay()) (\(describe(promotion.type))\(units))", "", "",
                        money.format(-promotion.discount)
                    ])
                }
            }
        }
        var totals: [(String, Int64)] = [("Subtotal", receipt.subtotal)]
        if receipt.itemDiscount > 0 { totals.append(("Item discounts", -receipt.itemDiscount)) }
        if let cart = receipt.cartPromotion { totals.append(("\(cart.name.forDisplay()) (cart)", -cart.discount)) }
        // One row per tax rate (docs/taxes.md): above the total when the tax is added to it (net
        // prices), under it when the prices include it.
        let taxRows = Self.taxRows(receipt, money: money)
        let taxAbove = receipt.taxes.map { !$0.pricesIncludeTax } ?? false
        if taxAbove { totals += taxRows }
        let after = taxAbove ? [] : taxRows

        var widths = (0..<5).map { column in rows.map { $0[column].columns }.max() ?? 0 }
        let amountWidth = max(
            widths[4],
            ((totals + after).map { money.format($0.1).count } + [money.format(receipt.total).count]).max()!)
        let empty = "(the cart is empty)"
        // Piped output keeps every character: what does not fit continues on the next line.
        let width = style.width ?? pipedWidth
        let wraps = style.width == nil
        // A long cart promotion's label gives way too, rather than widen every row.
        let totalsWidth = min(
            ((totals + after).map(\.0.columns) + ["Total".count]).max()!,
            max("Item discounts".count, width - 2 - amountWidth))
        func labelsWidth() -> Int {
            max(
                widths[0] + widths[1] + widths[2] + widths[3] + 6, totalsWidth,
                rows.isEmpty ? empty.count - 2 - amountWidth : 0)
        }
        if labelsWidth() + 2 + amountWidth > width {
            // Too wide: the names give way, down to a few characters (names shorter than that
            // stay as they are: widening them would only make the receipt wider still).
            widths[1] = max(min(6, widths[1]), widths[1] - (labelsWidth() + 2 + amountWidth - width))
        }
        let labels = labelsWidth()
        let ruleWidth = labels + 2 + amountWidth
        /// A name in `width` columns: shortened, or on as many lines as it takes when piped.
        func fitted(_ text: String, _ width: Int) -> [String] {
            wraps ? wrap(text, width) : [TextTable.fit(text, width)]
        }

        // A tax row's label holds an amount, the base, which is never cut: when the label does not
        // fit, the base goes on the next line (`VAT 21%`, then `  on 66.07 €`).
        let taxLabels = Set(taxRows.map(\.0))
        func fittedLabel(_ label: String) -> [String] {
            guard taxLabels.contains(label), label.columns > labels, let on = label.firstRange(of: " on ") else {
                return fitted(label, labels)
            }
            return [String(label[..<on.lowerBound]), "  on " + label[on.upperBound...]]
        }

        // On a terminal the heading continues on the next line rather than run past the width;
        // piped, it stays one line, for the scripts that look for it.
        let heading =
            "Receipt \(receipt.id.map { "for cart \(display($0)), " } ?? "")\(receipt.at) (\(receipt.currency.code))"
        var out = (style.width.map { wrap(heading, $0) } ?? [heading]).map { $0 + "\n" }.joined()
        out += String(repeating: "=", count: ruleWidth) + "\n"
        if rows.isEmpty { out += empty + "\n" }
        for row in rows {
            // A promotion's row has the quantity and unit price columns free for its words, when piped.
            let spans = wraps && row[2].isEmpty
            let name = fitted(row[1], spans ? labels - widths[0] - 2 : widths[1])
            var text = pad(row[0], widths[0]) + "  " + name[0]
            if !spans {
                text = pad(text, widths[0] + 2 + widths[1]) + "  " + pad(row[2], widths[2], right: true)
                text += " " + pad(row[3], widths[3], right: true)
            }
            var line = pad(TextTable.fit(text, labels), labels)
            let amount = pad(row[4], amountWidth, right: true)
            line += "  " + (row[4].hasPrefix("-") ? style.paint(amount, .saving) : amount)
            while line.last == " " { line.removeLast() }
            out += line + "\n"
            for more in name.dropFirst() { out += pad("", widths[0]) + "  " + more + "\n" }
        }
        out += String(repeating: "-", count: ruleWidth) + "\n"
        for (label, value) in totals {
            let amount = pad(money.format(value), amountWidth, right: true)
            let label = fittedLabel(label)
            out += pad(label[0], labels) + "  " + (value < 0 ? style.paint(amount, .saving) : amount) + "\n"
            for more in label.dropFirst() { out += more + "\n" }
        }
        out +=
            style.paint(
                pad("Total", labels) + "  " + pad(money.format(receipt.total), amountWidth, right: true), .total) + "\n"
        for (label, value) in after {
            let label = fittedLabel(label)
            out += pad(label[0], labels) + "  " + pad(money.format(value), amountWidth, right: true) + "\n"
            for more in label.dropFirst() { out += more + "\n" }
        }
        if receipt.discount > 0 {
            out += style.paint("You saved \(money.format(receipt.discount)).", .saving) + "\n"
        }
        // Sentences continue on the next line, indented, rather than run past the width.
        for warning in receipt.warnings {
            for line in wrap("warning: \(warning.description.withoutControlCharacters)", width, continuation: "  ") {
                out += style.paint(line, .warning) + "\n"
            }
        }
        for hint in hints {
            out += wrap(Self.hint(hint, money: money), width, continuation: "  ").map { $0 + "\n" }.joined()
        }
        if let explanations {
            for line in Self.explanations(explanations, money: money).split(separator: "\n") {
                let indent = String(line.prefix { $0 == " " })
                out += wrap(String(line), width, continuation: indent + "    ").map { $0 + "\n" }.joined()
            }
        }
        return out
    }

    /// The width of a text receipt that goes to a file or a pipe.
    public static let pipedWidth = 80

    /// `text` in lines of at most `width` characters, broken at spaces (a word longer than a line is
    /// split), each line after the first starting with `continuation` (by default, `text`'s own
    /// indentation). Nothing is lost but the spaces where a line breaks.
    static func wrap(_ text: String, _ width: Int, continuation: String? = nil) -> [String] {
        guard text.columns > width else { return [text] }
        let indent = String(text.prefix { $0 == " " })
        let next = continuation ?? indent
        var lines: [String] = []
        var line = indent
        var lineHasWord = false
        func room() -> Int { max(1, width - line.columns) }
        for word in text.dropFirst(indent.count).split(separator: " ", omittingEmptySubsequences: false) {
            var word = Substring(word)
            if lineHasWord, line.columns + 1 + word.columns > width {
                lines.append(line)
                line = next
                lineHasWord = false
            }
            if lineHasWord { line += " " }
            while line.columns + word.columns > width, width - line.columns > 0 {
                // A word longer than a whole line: as much as fits, then the rest on the next.
                // As many characters as fill `room()` columns (at least one, however wide).
                var taken = 0
                var columns = 0
                for character in word {
                    if taken > 0, columns + character.columns > room() { break }
                    columns += character.columns
                    taken += 1
                }
                line += word.prefix(taken)
                word = word.dropFirst(taken)
                lines.append(line)
                line = next
            }
            line += word
            lineHasWord = true
        }
        lines.append(line)
        return lines
    }

    /// `VAT 21% on 66.07 €` and the tax, one per rate, ascending; none without taxes.
    public static func taxRows(_ receipt: Receipt, money: MoneyStyle) -> [(String, Int64)] {
        guard let taxes = receipt.taxes else { return [] }
        return taxes.rates.map { entry in ("VAT \(rate(entry.rate)) on \(money.format(entry.base))", entry.tax) }
    }

    /// A tax rate as people write it: `21%`, `7.25%`, `7.5%`.
    public static func rate(_ hundredths: Int64) -> String {
        var text = Amount.format(hundredths, minorDigits: 2)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + "%"
    }

    /// `Add 1 more TSHIRT (Cabify T-Shirt) to get "TSHIRT 3+": save 3.00 €.` (the name left out
    /// when it is the code).
    public static func hint(_ hint: Hint, money: MoneyStyle) -> String {
        let code = hint.code.forDisplay()
        let product = hint.productName == hint.code ? code : "\(code) (\(hint.productName.forDisplay()))"
        return
            "Add \(hint.units) more \(product) to get \"\(hint.promotionName.forDisplay())\": save \(money.format(hint.saving))."
    }

    /// Each explanation on a line of its own, in words.
    public static func explanations(_ explanations: [Explanation], money: MoneyStyle) -> String {
        guard !explanations.isEmpty else { return "Promotions: none concerns this cart.\n" }
        var out = "Promotions:\n"
        for explanation in explanations {
            out +=
                "  \"\(explanation.name.forDisplay())\" (\(explanation.type.rawValue)): "
                + words(explanation, money: money)
                + "\n"
        }
        return out
    }

    /// What an explanation says, for people.
    public static func words(_ explanation: Explanation, money: MoneyStyle) -> String {
        switch explanation.status {
        case .disabled: return "disabled"
        case .notStarted: return "not started yet (starts \(explanation.start.map(\.description) ?? "later"))"
        case .ended: return "ended (\(explanation.end.map(\.description) ?? "before"))"
        case .needsCoupon: return "needs a coupon this cart does not present"
        case .notEligible: return "not for this customer"
        case .exhausted: return "its usage limit is reached"
        case .applied: return "applied, saving \(money.format(explanation.discount ?? 0))"
        case .outranked:
            return "outranked by " + (explanation.by.map { "\"\($0.forDisplay())\"" } ?? "other promotions")
        case .belowThreshold:
            switch explanation.missing {
            case .units(let code, let units)?: return "\(units) more \(code.forDisplay()) would make it apply"
            case .amount(let amount)?: return "\(money.format(amount)) more spend would make it apply"
            case nil: return "below its threshold"
            }
        case .noDiscount: return "cannot lower a price in this cart"
        }
    }

    /// One line per cart, for batches: `day.ndjson:3: total 81.00 € (subtotal 85.00 €, discount 4.00 €, 2 lines)`.
    /// `label` is shown as it is: escape what came from input in it (a file name) first.
    public static func renderLine(_ receipt: Receipt, label: String) -> String {
        let money = MoneyStyle(currency: receipt.currency)
        let lines = receipt.lines.count == 1 ? "1 line" : "\(receipt.lines.count) lines"
        var out =
            "\(label)\(receipt.id.map { " (id \(display($0)))" } ?? ""): total \(money.format(receipt.total)) (subtotal \(money.format(receipt.subtotal)), "
        out += "discount \(money.format(receipt.discount)), "
        if let taxes = receipt.taxes { out += "tax \(money.format(taxes.tax)), " }
        out += "\(lines))"
        for warning in receipt.warnings { out += "; warning: \(warning.description.withoutControlCharacters)" }
        return out + "\n"
    }

    /// A cart id as people read it: an integer as written, a string in quotes.
    public static func display(_ id: CartID) -> String {
        switch id {
        case .integer(let digits): digits
        case .string(let text): "\"" + JSONWriter.escaped(text).withoutControlCharacters + "\""
        }
    }

    /// What a promotion type does, in a receipt's words.
    public static func describe(_ type: PromotionType) -> String { type.label }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.columns))
        return right ? fill + text : text + fill
    }
}
