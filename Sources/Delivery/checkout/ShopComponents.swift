import ArgumentParser
import BatchPricing
import Foundation
import InputFiles
import Platform
import Pricing
import ShopStore
import Shopping

/// `--store`, shared by the shopping commands.
struct StoreOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The store (SQLite). Default: $CHECKOUT_STORE, else $XDG_DATA_HOME/checkout/store.sqlite, else ~/.local/share/checkout/store.sqlite.",
            valueName: "path"),
        completion: .storeFile)
    var store: String?

    var location: (path: String, isDefault: Bool) {
        ShopDatabase.location(option: store, environment: ProcessInfo.processInfo.environment)
    }
}

/// `--customer` and `--customers`, shared by the shopping commands (docs/store.md, "Customers").
struct CustomerOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The customer whose cart, payment or orders these are (any non-empty id). Default: the store's anonymous customer.",
            valueName: "id"))
    var customer: String?

    @Option(
        help: ArgumentHelp(
            "The customers' groups (JSON), read only with --customer. Default: $CHECKOUT_CUSTOMERS, else Rules/Customers.json when present, else none.",
            valueName: "json"),
        completion: .catalogFile)
    var customers: String?

    func validate() throws {
        if customer == "" {
            throw ValidationError("--customer needs a non-empty id (leave it out for the anonymous customer)")
        }
        // Ids are compared byte for byte; these bytes would reach the store as U+FFFD, the id of
        // every other id so spelled.
        if let customer, ArgumentText.isNotUTF8(customer) {
            throw ValidationError(
                "--customer: the id's bytes are not UTF-8 text (shown as \"\(customer.forDisplay(limit: String.messageValueLimit))\"); give the id in UTF-8"
            )
        }
    }

    /// The customers file to read: `--customers`, else `$CHECKOUT_CUSTOMERS`, else
    /// `Rules/Customers.json` when present, else none.
    var customersPath: String? {
        if let path = customers ?? EnvironmentDefault.value(EnvironmentDefault.customers) { return path }
        return FileBytes.isFile("Rules/Customers.json") ? "Rules/Customers.json" : nil
    }

    /// The customer with their groups from the customers file (an id it does not list has none);
    /// nil for the anonymous customer. A file that cannot be read ends the run with exit 66, a
    /// malformed one with 65.
    func load() throws -> Cart.Customer? {
        guard let customer else { return nil }
        guard let path = customersPath else { return Cart.Customer(id: customer) }
        do {
            return Cart.Customer(id: customer, groups: try CustomersFile.load(path)[ExactText(customer)] ?? [])
        } catch {
            Console.error(error.description)
            throw ExitStatus.forInput(error)
        }
    }
}

/// Everything a shopping command needs, composed: rules, the store, the simulated gateway, the clock.
struct ShopComponents {
    let rules: PricingRules
    let database: ShopDatabase
    let service: CheckoutService
    /// Said after an unknown product code when the catalog is the built-in one.
    let builtInCatalogNote: String?

    /// `access`: `.read` for commands that only read the store (they work on a read-only store and
    /// create nothing), `.write` for the others.
    init(
        rules options: RulesOptions, store: StoreOptions, customer: CustomerOptions,
        access: ShopDatabase.Access = .write
    ) throws {
        let shopper = try customer.load()
        rules = try options.load()
        builtInCatalogNote = options.builtInCatalogNote
        database = try Self.open(store, access: access)
        database.customer = shopper?.id
        var gateway: PaymentGateway = SimulatedGateway(ledger: database)
        if let moment = Machine.environment("CHECKOUT_TEST_PAUSE_PAYMENT") {
            gateway = PausingGateway(gateway: gateway, moment: moment)
        }
        service = CheckoutService(
            rules: rules.ruleSet, cart: database, orders: database, gateway: gateway, clock: SystemClock(),
            customer: shopper)
    }

    /// The store alone, for commands that need no rules (`orders`, `cart clear`); a store that cannot
    /// be used ends the run with exit 74. `access`: `.read` for commands that only read the store.
    static func open(_ store: StoreOptions, customer: String? = nil, access: ShopDatabase.Access = .write) throws
        -> ShopDatabase
    {
        do {
            let location = store.location
            let database = try ShopDatabase(path: location.path, access: access, createDirectory: location.isDefault)
            database.customer = customer
            return database
        } catch {
            Console.error("\(error)")
            throw ExitStatus.ioError
        }
    }

    /// Runs a store operation. A cart that cannot be priced or an unknown product ends the run with
    /// exit 65, a store failure with exit 74, each with its message.
    func run<T>(_ body: () throws -> T) throws -> T {
        try Self.run(builtInCatalogNote: builtInCatalogNote, body)
    }

    static func run<T>(builtInCatalogNote: String? = nil, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CheckoutService.Failure {
            Console.error(error.description)
            throw ExitStatus.dataError
        } catch let error as CheckoutService.ChargedButUnrecorded {
            throw error  // the payment command says what was charged
        } catch let error as CartLimitExceeded {
            Console.error(error.description)
            throw ExitStatus.dataError
        } catch let error as CartTotalTooLarge {
            Console.error(error.description)
            throw ExitStatus.dataError
        } catch let error as CartBuilder.Problem {
            Console.error(error.description)
            if case .unknownCode = error, let builtInCatalogNote {
                OutputStream.standardError.write(builtInCatalogNote + "\n")
            }
            switch error {
            case .unknownCode, .lineTooLarge: throw ExitStatus.dataError
            case .quantityOutOfRange: throw ExitStatus.usage
            }
        } catch {
            Console.error("\(error)")
            throw ExitStatus.ioError
        }
    }
}

/// Test-only (docs/store.md): `CHECKOUT_TEST_PAUSE_PAYMENT=before-charge` or `after-charge` makes
/// `pay` say `test: paused before the charge` (or after) on standard error and wait 30 seconds
/// there, so that a test can kill it at that moment.
final class PausingGateway: PaymentGateway {
    let gateway: PaymentGateway
    let moment: String

    init(gateway: PaymentGateway, moment: String) {
        self.gateway = gateway
        self.moment = moment
    }

    func charge(amount: Int64, currency: Currency, card: PaymentCard, idempotencyKey: String) throws -> ChargeOutcome {
        if moment == "before-charge" { pause("before") }
        let outcome = try gateway.charge(amount: amount, currency: currency, card: card, idempotencyKey: idempotencyKey)
        if moment == "after-charge" { pause("after") }
        return outcome
    }

    func status(idempotencyKey: String) throws -> ChargeRecord? { try gateway.status(idempotencyKey: idempotencyKey) }

    private func pause(_ when: String) {
        OutputStream.standardError.write("test: paused \(when) the charge\n")
        Machine.sleep(seconds: 30)
    }
}
