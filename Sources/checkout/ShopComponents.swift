import ArgumentParser
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

/// Everything a shopping command needs, composed: rules, the store, the simulated gateway, the clock.
struct ShopComponents {
    let rules: PricingRules
    let database: ShopDatabase
    let service: CheckoutService
    /// Said after an unknown product code when the catalog is the built-in one.
    let builtInCatalogNote: String?

    init(rules options: RulesOptions, store: StoreOptions) throws {
        rules = try options.load()
        builtInCatalogNote = options.builtInCatalogNote
        database = try Self.open(store)
        service = CheckoutService(
            rules: rules.ruleSet, cart: database, orders: database, gateway: SimulatedGateway(ledger: database),
            clock: SystemClock())
    }

    /// The store alone, for commands that need no rules (`orders`, `cart clear`); a store that cannot
    /// be used ends the run with exit 74.
    static func open(_ store: StoreOptions) throws -> ShopDatabase {
        do {
            let location = store.location
            return try ShopDatabase(path: location.path, createDirectory: location.isDefault)
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
