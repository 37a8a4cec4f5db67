import ArgumentParser
import Platform
import Pricing
import Receipts
import Shopping

struct CartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cart",
        abstract: "Change or show the cart kept in the store, one step per call.",
        subcommands: [Add.self, Remove.self, Show.self, Clear.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a product to the cart.")
        @Argument(help: "The product code.") var code: String
        @Option(help: "How many (1 to 1000000000).") var quantity: Int64 = 1
        @OptionGroup var rules: RulesOptions
        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard Cart.itemQuantities.contains(quantity) else { throw ValidationError("--quantity must be from 1 to 1000000000") }
        }

        func run() throws {
            let shop = try ShopComponents(rules: rules, store: store)
            let product = try shop.run { try shop.database.add(code, quantity: quantity, from: shop.rules.catalog) }
            OutputStream.standardOutput.write("Added \(quantity) × \(product.name) (\(code)).\n")
            try Console.finishOutput()
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove units of a product (all of them without --quantity).")
        @Argument(help: "The product code.") var code: String
        @Option(help: "How many to remove.") var quantity: Int64?
        @OptionGroup var rules: RulesOptions
        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let quantity, quantity < 1 { throw ValidationError("--quantity must be at least 1") }
        }

        func run() throws {
            let shop = try ShopComponents(rules: rules, store: store)
            guard try shop.run({ try shop.database.remove(code, quantity: quantity) }) else {
                Console.error("\"\(code)\" is not in the cart")
                throw ExitStatus.failures
            }
            OutputStream.standardOutput.write("Removed \(quantity.map { "\($0) × " } ?? "all of ")\(code).\n")
            try Console.finishOutput()
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the cart priced now: a receipt (the receipt JSON with --format json).")
        @Option(help: "text or json.") var format: ReceiptFormat = .text
        @OptionGroup var rules: RulesOptions
        @OptionGroup var store: StoreOptions

        func run() throws {
            let shop = try ShopComponents(rules: rules, store: store)
            let (receipt, hints) = try shop.run { try shop.service.receiptWithHints() }
            switch format {
            case .json: OutputStream.standardOutput.write(ReceiptEncoder.render(receipt, indented: true) + "\n")
            case .text: OutputStream.standardOutput.write(receipt.lines.isEmpty ? "Cart is empty\n" : ReceiptText.render(receipt, hints: hints))
            }
            try Console.finishOutput()
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Empty the cart.")
        @OptionGroup var rules: RulesOptions
        @OptionGroup var store: StoreOptions

        func run() throws {
            let shop = try ShopComponents(rules: rules, store: store)
            try shop.run { try shop.database.clear() }
            OutputStream.standardOutput.write("Cart is empty\n")
            try Console.finishOutput()
        }
    }
}
