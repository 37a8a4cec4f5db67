import ArgumentParser
import Platform
import Pricing
import Receipts
import StrictJSON

struct Products: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "products", abstract: "List the catalog: codes, names and prices.")

    @OptionGroup var rules: RulesOptions
    @Option(name: [.short, .long], help: "text or json.") var format: OutputFormat = .text

    func run() throws {
        let catalog = try rules.load().catalog
        let money = MoneyStyle(currency: catalog.currency)
        let out = OutputStream.standardOutput
        switch format {
        case .text:
            var table = TextTable([.left, .left, .right], stretchable: 1)
            table.add(["CODE", "NAME", "PRICE"])
            for product in catalog.products { table.add([product.code, product.name, money.format(product.price)]) }
            out.write(table.render(width: Terminal.style.width).map { $0 + "\n" }.joined())
        case .json:
            let json = JSONWriter(pretty: true)
            json.object {
                json.member("currency") { json.string(catalog.currency.code) }
                json.member("products") {
                    json.array(catalog.products) { product in
                        json.object {
                            json.member("code") { json.string(product.code) }
                            json.member("name") { json.string(product.name) }
                            json.member("price") {
                                json.string(Amount.format(product.price, minorDigits: catalog.currency.minorDigits))
                            }
                        }
                    }
                }
            }
            out.write(json.text + "\n")
        }
        try Console.finishOutput()
    }
}
