import ArgumentParser
import BatchPricing
import InputFiles
import Platform
import Pricing
import Receipts
import Shopping
import StrictJSON

struct CartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cart",
        abstract: "Change or show the cart kept in the store, one step per call.",
        subcommands: [Add.self, Remove.self, Show.self, Clear.self, Coupon.self])

    /// What `cart show`, `cart clear` and an empty `cart show` say of an empty cart.
    static let emptyMessage = "Cart is empty.\n"

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a product to the cart.")
        @Argument(help: "The product code.", completion: .productCode) var code: String
        // Unconditional: `--quantity -1` is a quantity out of range, not a missing value.
        @Option(parsing: .unconditional, help: "How many (1 to 1,000,000,000).") var quantity: Int64 = 1
        @OptionGroup var rules: RulesOptions
        @OptionGroup var store: StoreOptions
        @OptionGroup var customer: CustomerOptions

        func validate() throws {
            guard Cart.itemQuantities.contains(quantity) else {
                throw ValidationError("--quantity must be from 1 to 1,000,000,000, not \(quantity)")
            }
        }

        func run() throws {
            let shop = try ShopComponents(rules: rules, store: store, customer: customer)
            let product = try shop.run { try shop.database.add(code, quantity: quantity, from: shop.rules.catalog) }
            OutputStream.standardOutput.write(
                "Added \(quantity) × \(product.name.forDisplay()) (\(product.code.forDisplay())).\n")
            try Console.finishOutput(changed: "\(quantity) × \(product.code) added to the cart")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove units of a product (all of them without --quantity).")
        @Argument(help: "The product code.", completion: .productCode) var code: String
        @Option(parsing: .unconditional, help: "How many to remove.") var quantity: Int64?
        @OptionGroup var rules: RulesOptions
        @OptionGroup var store: StoreOptions
        @OptionGroup var customer: CustomerOptions

        func validate() throws {
            if let quantity, quantity < 1 { throw ValidationError("--quantity must be at least 1") }
        }

        func run() throws {
            let shop = try ShopComponents(rules: rules, store: store, customer: customer)
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
        @Option(name: [.short, .long], help: "text or json (the receipt JSON, with the cart's \"coupons\").")
        var format: ReceiptFormat = .text
        @OptionGroup var rules: RulesOptions
        @OptionGroup var store: StoreOptions
        @OptionGroup var customer: CustomerOptions

        func run() throws {
            let shop = try ShopComponents(rules: rules, store: store, customer: customer, access: .read)
            let (receipt, hints) = try shop.run { try shop.service.receiptWithHints() }
            switch format {
            case .json:
                let coupons = try shop.run { try shop.service.cart.coupons() }
                OutputStream.standardOutput.write(Self.json(receipt, coupons: coupons))
            case .text:
                let label = RulesSource.builtInLabel(
                    catalog: rules.catalogSource, promotions: rules.promotionsSource)
                OutputStream.standardOutput.write(
                    receipt.lines.isEmpty
                        ? CartCommand.emptyMessage
                        : PriceRun.labelled(ReceiptText.render(receipt, hints: hints, style: Terminal.style), label))
            }
            try Console.finishOutput()
        }

        /// The receipt JSON, indented, with the coupons the cart presents as its last member.
        static func json(_ receipt: Receipt, coupons: [String]) -> String {
            var encoder = ReceiptEncoder()
            var compact = encoder.encode(receipt)
            compact.removeLast()  // the closing brace
            compact += Array(",\"coupons\":[".utf8)
            compact += Array(coupons.map { "\"" + JSONWriter.escaped($0) + "\"" }.joined(separator: ",").utf8)
            compact += Array("]}".utf8)
            var indented: [UInt8] = []
            compact.withUnsafeBufferPointer { JSONIndenter.indent($0, into: &indented) }
            return String(decoding: indented, as: UTF8.self) + "\n"
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Empty the cart: its products and its coupons.")
        @OptionGroup var store: StoreOptions
        @OptionGroup var customer: CustomerOptions

        func run() throws {
            _ = try customer.load()  // read with --customer, as by every shopping command (65, 66)
            let database = try ShopComponents.open(store, customer: customer.customer)
            try ShopComponents.run { try database.clear() }
            OutputStream.standardOutput.write(CartCommand.emptyMessage)
            try Console.finishOutput(changed: "the cart was emptied")
        }
    }

    struct Coupon: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "coupon", abstract: "Present a coupon with the cart, take it back, or list them.",
            subcommands: [AddCoupon.self, RemoveCoupon.self, ListCoupons.self])
    }

    struct ListCoupons: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the coupons the cart presents, in the spelling first added.")
        @Option(name: [.short, .long], help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var store: StoreOptions
        @OptionGroup var customer: CustomerOptions

        func run() throws {
            _ = try customer.load()  // read with --customer, as by every shopping command (65, 66)
            // Only reads: a missing store is an empty one, and none is made (docs/store.md).
            let database = try ShopComponents.open(store, customer: customer.customer, access: .read)
            let coupons = try ShopComponents.run { try database.coupons() }
            let out = OutputStream.standardOutput
            switch format {
            case .text:
                out.write(
                    coupons.isEmpty
                        ? "The cart presents no coupon.\n" : coupons.map { $0.forDisplay() + "\n" }.joined())
            case .json:
                let json = JSONWriter(pretty: true)
                json.object { json.member("coupons") { json.array(coupons) { json.string($0) } } }
                out.write(json.text + "\n")
            }
            try Console.finishOutput()
        }
    }

    struct AddCoupon: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Present a coupon with the cart (any letter case; once).",
            discussion: "Give - to read the coupon from standard input rather than the command line.")
        @Argument(help: "The coupon, or - to read it from standard input.") var coupon: String
        @OptionGroup var rules: RulesOptions
        @OptionGroup var store: StoreOptions
        @OptionGroup var customer: CustomerOptions

        func validate() throws {
            try checkStandardInputReadOnce([("the coupon", coupon)] + rules.inputs)
        }

        func run() throws {
            let code = try couponText(coupon)
            let shop = try ShopComponents(rules: rules, store: store, customer: customer)
            let outcome = try shop.run { try shop.service.addCoupon(code) }
            switch outcome {
            case .alreadyPresent:
                OutputStream.standardOutput.write("The cart presents that coupon already.\n")
            case .added where outcome.nothingUnlocked != nil:
                OutputStream.standardOutput.write("Coupon added.\n")
                Console.warning("the coupon " + outcome.nothingUnlocked!)
            case .added(let unlocks, _, _, _):
                OutputStream.standardOutput.write(CheckoutService.CouponOutcome.unlockedSentence(unlocks) + "\n")
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
        @OptionGroup var customer: CustomerOptions

        func validate() throws {
            try checkStandardInputReadOnce([("the coupon", coupon)] + rules.inputs)
        }

        func run() throws {
            let code = try couponText(coupon)
            let shop = try ShopComponents(rules: rules, store: store, customer: customer)
            guard try shop.run({ try shop.service.cart.removeCoupon(code) }) else {
                Console.error("the cart does not present that coupon")
                throw ExitStatus.failures
            }
            OutputStream.standardOutput.write("Coupon removed.\n")
            try Console.finishOutput(changed: "the coupon was taken back")
        }
    }
}

/// The coupon given, or read from standard input for `-`, without the spaces around it (a coupon
/// pasted with them is the coupon); never empty.
func couponText(_ argument: String) throws -> String {
    let text = (argument == "-" ? (readLine(strippingNewline: true) ?? "") : argument).trimmingSpacesAndReturns
    guard !text.isEmpty else { throw ValidationError("the coupon is empty") }
    return text
}
