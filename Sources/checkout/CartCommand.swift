import ArgumentParser
import Platform
import Pricing
import Receipts
import Shopping

struct CartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cart",
        abstract: "Change or show the cart kept in the store, one step per call.",
        subcommands: [Add.self, Remove.self, Show.self, Clear.self, Coupon.self])

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a product to the cart.")
        @Argument(help: "The product code.") var code: String
        @Option(help: "How many (1 to 1,000,000,000).") var quantity: Int64 = 1
        @OptionGroup var rules: RulesOptions
        @OptionGroup var store: StoreOptions

        func validate() throws {
            guard Cart.itemQuantities.contains(quantity) else {
                throw ValidationError(
                    "--quantity must be from \(Cart.itemQuantities.lowerBound) to \(Cart.itemQuantities.upperBound)")
            }
        }

        func run() throws {
            let shop = try ShopComponents(rules: rules, store: store)
            let product = try shop.run { try shop.database.add(code, quantity: quantity, from: shop.rules.catalog) }
            OutputStream.standardOutput.write(
                "Added \(quantity) × \(product.name.forDisplay()) (\(product.code.forDisplay())).\n")
            try Console.finishOutput(changed: "\(quantity) × \(product.code) added to the cart")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove units of a product (all of them without --quantity).")
        @Argument(help: "The product code.") var code: String
        @Option(help: "How many to remove.") var quantity: Int64?
        @OptionGroup var rules: RulesOptions
        @OptionGroup var store: StoreOptions

        func validate() throws {
            if let quantity, quantity < 1 { throw ValidationError("--quantity must be at least 1") }
        }

        func run() throws {
            let shop = try ShopComponents(rules: rules, store: store)
            let removal = try shop.run {
                try shop.database.remove(code, quantity: quantity, from: shop.rules.catalog)
            }
            guard let (spelled, held) = removal else {
                Console.error("\"\(code.forDisplay(limit: String.messageValueLimit))\" is not in the cart")
                throw ExitStatus.failures
            }
            // What was actually removed: never more than the cart held.
            let removed = min(quantity ?? held, held)
            OutputStream.standardOutput.write(
                "Removed \(removed) × \(spelled.forDisplay())\(removed == held ? "; none left in the cart" : "").\n")
            try Console.finishOutput(changed: "\(removed) × \(spelled) removed from the cart")
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show the cart priced now: a receipt (the receipt JSON with --format json).")
        @Option(help: "text or json.") var format: ReceiptFormat = .text
        @OptionGroup var rules: RulesOptions
        @OptionGroup var store: StoreOptions

        func run() throws {
            let shop = try ShopComponents(rules: rules, store: store, access: .read)
            let (receipt, hints) = try shop.run { try shop.service.receiptWithHints() }
            switch format {
            case .json: OutputStream.standardOutput.write(ReceiptEncoder.render(receipt, indented: true) + "\n")
            case .text:
                OutputStream.standardOutput.write(
                    receipt.lines.isEmpty
                        ? "Cart is empty\n" : ReceiptText.render(receipt, hints: hints, style: Terminal.style))
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
            try Console.finishOutput(changed: "the cart was emptied")
        }
    }

    struct Coupon: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "coupon", abstract: "Present a coupon with the cart, or take it back.",
            subcommands: [AddCoupon.self, RemoveCoupon.self])
    }

    struct AddCoupon: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Present a coupon with the cart (any letter case; once).",
            discussion: "Give - to read the coupon from standard input rather than the command line.")
        @Argument(help: "The coupon, or - to read it from standard input.") var coupon: String
        @OptionGroup var rules: RulesOptions
        @OptionGroup var store: StoreOptions

        func run() throws {
            let code = try couponText(coupon)
            let shop = try ShopComponents(rules: rules, store: store)
            let outcome = try shop.run { try shop.service.addCoupon(code) }
            switch outcome {
            case .alreadyPresent:
                OutputStream.standardOutput.write("The cart presents that coupon already.\n")
            case .added(let unlocks) where unlocks.isEmpty:
                OutputStream.standardOutput.write("Coupon added.\n")
                Console.warning("the coupon matches no active promotion now")
            case .added(let unlocks):
                OutputStream.standardOutput.write(
                    "Coupon added: it unlocks " + unlocks.map { "\"\($0)\"" }.joined(separator: ", ") + ".\n")
            }
            try Console.finishOutput(changed: outcome == .alreadyPresent ? nil : "the coupon was added to the cart")
        }
    }

    struct RemoveCoupon: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Take a coupon back (any letter case).")
        @Argument(help: "The coupon, or - to read it from standard input.") var coupon: String
        @OptionGroup var rules: RulesOptions
        @OptionGroup var store: StoreOptions

        func run() throws {
            let code = try couponText(coupon)
            let shop = try ShopComponents(rules: rules, store: store)
            guard try shop.run({ try shop.service.cart.removeCoupon(code) }) else {
                Console.error("the cart does not present that coupon")
                throw ExitStatus.failures
            }
            OutputStream.standardOutput.write("Coupon removed.\n")
            try Console.finishOutput(changed: "the coupon was taken back")
        }
    }
}

/// The coupon given, or read from standard input for `-`; never empty.
func couponText(_ argument: String) throws -> String {
    let text = argument == "-" ? (readLine(strippingNewline: true) ?? "").trimmingSpacesAndReturns : argument
    guard !text.isEmpty else { throw ValidationError("the coupon is empty") }
    return text
}
