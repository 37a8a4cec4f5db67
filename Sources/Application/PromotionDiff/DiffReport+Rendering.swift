import Pricing
import StrictJSON

extension DiffReport {
    /// An amount as the receipts write it: the currency's minor digits, exact.
    func amount(_ value: Int128) -> String {
        let digits = currency.minorDigits
        let sign = value < 0 ? "-" : ""
        var text = String(value.magnitude)
        if text.count <= digits { text = String(repeating: "0", count: digits - text.count + 1) + text }
        guard digits > 0 else { return sign + text }
        text.insert(".", at: text.index(text.endIndex, offsetBy: -digits))
        return sign + text
    }

    func amount(_ value: Int64) -> String { amount(Int128(value)) }

    /// The JSON report, indented.
    public func json() -> String {
        let out = JSONWriter(pretty: true)
        func effect(_ effect: DiffTally.Effect?) {
            guard let effect else { return out.raw("null") }
            out.object {
                out.member("carts") { out.raw(String(effect.carts)) }
                out.member("discount") { out.string(amount(effect.discount)) }
            }
        }
        out.object {
            out.member("carts") { out.raw(String(carts)) }
            out.member("failed") { out.raw(String(failed)) }
            out.member("failures") {
                out.array(failures) { failure in
                    out.object {
                        out.member("file") { out.string(failure.file) }
                        out.member("line") { out.raw(String(failure.line)) }
                        out.member("error") { out.string(failure.error) }
                    }
                }
            }
            out.member("changed") { out.raw(String(changed)) }
            out.member("revenue") {
                out.object {
                    out.member("before") { out.string(amount(revenueBefore)) }
                    out.member("after") { out.string(amount(revenueAfter)) }
                    out.member("difference") { out.string(amount(revenueDifference)) }
                    out.member("percent") { if let percent { out.string(percent) } else { out.raw("null") } }
                }
            }
            out.member("promotions") {
                out.array(promotions) { promotion in
                    out.object {
                        out.member("id") { out.string(promotion.id) }
                        out.member("before") { effect(promotion.before) }
                        out.member("after") { effect(promotion.after) }
                    }
                }
            }
            out.member("largest_changes") {
                out.array(largestChanges) { change in
                    out.object {
                        out.member("file") { out.string(change.file) }
                        out.member("line") { out.raw(String(change.line)) }
                        if let id = change.id { out.member("id") { id.write(to: out) } }
                        out.member("before") { out.string(amount(change.before)) }
                        out.member("after") { out.string(amount(change.after)) }
                        out.member("difference") { out.string(amount(change.difference)) }
                    }
                }
            }
        }
        return out.text + "\n"
    }

    /// Promotions whose effect differs between the files, for the summaries.
    var changedPromotions: [PromotionEffect] { promotions.filter { $0.before != $0.after } }

    func money(_ value: Int128) -> String {
        let text = amount(value)
        switch currency.code {
        case "EUR": return text + " €"
        case "USD": return text.hasPrefix("-") ? "-$" + text.dropFirst() : "$" + text
        default: return text + " " + currency.code
        }
    }

    func signed(_ value: Int128) -> String { (value > 0 ? "+" : "") + money(value) }

    /// The revenue's change in percent with the sign of the difference: a fall too small to show
    /// is "-0.00", not "+0.00".
    func signed(percent: String) -> String {
        percent.hasPrefix("-") ? percent : (revenueDifference < 0 ? "-" : "+") + percent
    }

    /// For people, in a terminal or a CI log.
    public func text() -> String {
        var out = "Carts: \(carts) (\(failed) failed, \(changed) changed)\n"
        out += "Revenue: \(money(revenueBefore)) → \(money(revenueAfter)) (\(signed(revenueDifference))"
        out += percent.map { ", \(signed(percent: $0)) %)" } ?? ")"
        out += "\n"
        let changed = changedPromotions
        if !changed.isEmpty {
            out += "Promotions that changed:\n"
            for promotion in changed {
                out += "  \(promotion.id.forDisplay()): \(describe(promotion.before)) → \(describe(promotion.after))\n"
            }
        }
        if !largestChanges.isEmpty {
            out += "Largest changes:\n"
            for change in largestChanges {
                out +=
                    "  \(change.file.forDisplay()):\(change.line)\(change.id.map { " (id \($0.display))" } ?? ""): \(money(Int128(change.before))) → \(money(Int128(change.after))) (\(signed(change.difference)))\n"
            }
        }
        if !failures.isEmpty {
            out += "Carts that could not be priced (first \(failures.count) of \(failed)):\n"
            for failure in failures {
                out += "  \(failure.file.forDisplay()):\(failure.line): \(failure.error.withoutControlCharacters)\n"
            }
        }
        return out
    }

    func describe(_ effect: DiffTally.Effect?) -> String {
        guard let effect else { return "absent" }
        return "\(counted(effect.carts, "cart")), \(money(effect.discount))"
    }

    /// A summary for a pull-request comment or GitHub's `$GITHUB_STEP_SUMMARY`.
    public func markdown() -> String {
        /// Input text inside a code span of a table cell: escaped as everywhere, its backticks written
        /// as escapes so that it cannot close the span (and start a link or an image), its bars as `\|`.
        func cell(_ text: String) -> String {
            text.forDisplay().replacingAll("`", with: "\\u{60}").replacingAll("|", with: "\\|")
        }
        // A code span, with a longer fence when the text holds a backtick.
        func code(_ text: String) -> String { text.contains("`") ? "`` " + text + " ``" : "`" + text + "`" }
        var out =
            "### Promotions change: revenue \(percent.map { signed(percent: $0) + " %" } ?? signed(revenueDifference))\n\n"
        out += "| | before | after | difference |\n| --- | ---: | ---: | ---: |\n"
        out += "| revenue | \(money(revenueBefore)) | \(money(revenueAfter)) | \(signed(revenueDifference)) |\n\n"
        // `carts` counts the carts that failed too.
        out += "\(counted(carts - failed, "cart")) priced under both files, \(changed) changed"
        out += failed > 0 ? "; \(counted(failed, "cart")) could not be priced.\n" : ".\n"
        let changed = changedPromotions
        if !changed.isEmpty {
            out +=
                "\n| promotion | carts before | discount before | carts after | discount after |\n| --- | ---: | ---: | ---: | ---: |\n"
            for promotion in changed {
                func carts(_ e: DiffTally.Effect?) -> String { e.map { String($0.carts) } ?? "—" }
                func discount(_ e: DiffTally.Effect?) -> String { e.map { money($0.discount) } ?? "—" }
                out +=
                    "| `\(cell(promotion.id))` | \(carts(promotion.before)) | \(discount(promotion.before)) | \(carts(promotion.after)) | \(discount(promotion.after)) |\n"
            }
        }
        if !largestChanges.isEmpty {
            out +=
                "\n<details><summary>Largest changes</summary>\n\n| cart | before | after | difference |\n| --- | ---: | ---: | ---: |\n"
            for change in largestChanges {
                out +=
                    "| `\(cell(change.file)):\(change.line)`\(change.id.map { " (id \(code(cell($0.display))))" } ?? "") | \(money(Int128(change.before))) | \(money(Int128(change.after))) | \(signed(change.difference)) |\n"
            }
            out += "\n</details>\n"
        }
        if !failures.isEmpty {
            out += "\n**\(counted(failed, "cart")) could not be priced**; the first:\n\n"
            for failure in failures { out += "- `\(cell(failure.file)):\(failure.line)`: `\(cell(failure.error))`\n" }
        }
        return out
    }
}

extension CartID {
    /// As receipts write it: a string id as a JSON string, an integer id with its literal's digits.
    func write(to out: JSONWriter) {
        switch self {
        case .string(let text): out.string(text)
        case .integer(let digits): out.raw(digits)
        }
    }

    /// As text receipts name it: an integer as written, a string in quotes.
    var display: String {
        switch self {
        case .integer(let digits): digits
        case .string(let text): "\"" + JSONWriter.escaped(text).withoutControlCharacters + "\""
        }
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
