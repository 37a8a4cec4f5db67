import ArgumentParser
import Platform
import Pricing
import Receipts
import StrictJSON
import Suggestions

struct Products: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "products", abstract: "List the catalog: codes, names, categories and prices.")

    @OptionGroup var rules: RulesOptions
    @Option(name: [.short, .long], help: "text or json.") var format: OutputFormat = .text
    @Option(
        help: ArgumentHelp(
            "Only the products in this category or under it, such as \"Clothing > Shirts\".",
            discussion: "Names are compared one by one: Clothing takes Clothing > Shirts, not Clothingware.",
            valueName: "path"))
    var category: String?

    func validate() throws {
        if let category, Product.categoryPath(category) == nil {
            throw ValidationError(
                "--category \"\(category)\" has an empty name; write names separated by \">\", such as \"Clothing > Shirts\""
            )
        }
    }

    func run() throws {
        let catalog = try rules.load().catalog
        let path = category.flatMap(Product.categoryPath)
        // The products a promotion's `categories` selector of the path takes (docs/selectors.md).
        let selector = path.map { ProductSelector(categories: [$0]) }
        let products = catalog.products.filter { selector?.selects($0) ?? true }
        if let path, products.isEmpty { Self.noteNoProduct(in: path, of: catalog) }
        let money = MoneyStyle(currency: catalog.currency)
        let out = OutputStream.standardOutput
        switch format {
        case .text:
            // A category column when the catalog has categories, a tax column when it has taxes.
            let categories = path != nil || catalog.products.contains { $0.category != nil }
            var alignments: [TextTable.Alignment] = [.left, .left]
            var heading = ["CODE", "NAME"]
            if categories {
                alignments.append(.left)
                heading.append("CATEGORY")
            }
            alignments.append(.right)
            heading.append("PRICE")
            if catalog.isTaxed {
                alignments.append(.right)
                heading.append("TAX")
            }
            var table = TextTable(alignments, stretchable: 1)
            if categories { table.stretchable.append(2) }
            table.add(heading)
            for product in products {
                // Text from the catalog, escaped: a name cannot start a line of its own or colour the terminal.
                var row = [product.code.forDisplay(), product.name.forDisplay()]
                if categories { row.append(product.category.map { Self.display($0).forDisplay() } ?? "") }
                row.append(money.format(product.price))
                if let rate = product.taxRate { row.append(ReceiptText.rate(rate)) }
                table.add(row)
            }
            out.write(table.render(width: Terminal.style.width).map { $0 + "\n" }.joined())
        case .json:
            let json = JSONWriter(pretty: true)
            json.object {
                json.member("currency") { json.string(catalog.currency.code) }
                if catalog.isTaxed { json.member("prices_include_tax") { json.raw("\(catalog.pricesIncludeTax)") } }
                json.member("products") {
                    json.array(products) { product in
                        json.object {
                            json.member("code") { json.string(product.code) }
                            json.member("name") { json.string(product.name) }
                            json.member("price") {
                                json.string(Amount.format(product.price, minorDigits: catalog.currency.minorDigits))
                            }
                            if let category = product.category {
                                json.member("category") { json.string(Self.display(category)) }
                            }
                            if let brand = product.brand { json.member("brand") { json.string(brand) } }
                            if !product.tags.isEmpty {
                                json.member("tags") { json.array(product.tags) { json.string($0) } }
                            }
                            if let rate = product.taxRate {
                                json.member("tax_rate") { json.string(Amount.format(rate, minorDigits: 2)) }
                            }
                        }
                    }
                }
            }
            out.write(json.text + "\n")
        }
        try Console.finishOutput()
    }

    /// `Clothing > Shirts`.
    static func display(_ path: [String]) -> String { path.joined(separator: " > ") }

    /// Says on standard error that no product is in `path`, and the catalog's category (or a
    /// category above one) it most likely means, as `validate` suggests one: the same but for
    /// letter case, a near spelling, or one it begins. A wrong letter case or a typo lists nothing,
    /// and should not look like an empty shelf.
    static func noteNoProduct(in path: [String], of catalog: Catalog) {
        let categories = CatalogIndex(catalog).categoryPaths(depths: CatalogIndex.suggestedDepths(near: path.count))
        let wanted = display(path)
        let why =
            !catalog.products.contains { $0.category != nil }
            ? ": the catalog has no categories"
            : (WordSuggester(categories).suggestion(for: wanted).map { "; did you mean \"\($0.forDisplay())\"?" } ?? "")
                + " (names are compared exactly, letter case too)"
        OutputStream.standardError.write("note: no product is in category \"\(wanted.forDisplay())\"\(why)\n")
    }
}
