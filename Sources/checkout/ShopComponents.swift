import ArgumentParser
import CheckoutFiles
import Foundation
import Pricing
import ShopStore
import Shopping

/// `--store`, shared by the shopping commands.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The store (SQLite). Default: $CHECKOUT_STORE, else $XDG_DATA_HOME/checkout/store.sqlite, else ~/.local/share/checkout/store.sqlite.", valueName: "path"))
    var store: String?

    var path: String { ShopDatabase.defaultPath(option: store, environment: ProcessInfo.processInfo.environment) }
}

/// Everything a shopping command needs, composed: rules, the store, the simulated gateway, the clock.
struct ShopComponents {
    let rules: PricingRules
    let database: ShopDatabase
    let service: CheckoutService

    init(rules options: RulesOptions, store: StoreOptions) throws {
        rules = try options.load()
        do {
            database = try ShopDatabase(path: store.path)
        } catch {
            Console.error("\(error)")
            throw ExitStatus.ioError
        }
        service = CheckoutService(rules: rules.ruleSet, cart: database, orders: database, gateway: SimulatedGateway(ledger: database),
                                  clock: SystemClockService())
    }

    /// Runs a store operation. A cart that cannot be priced or an unknown product ends the run with
    /// exit 65, a store failure with exit 74, each with its message.
    func run<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CheckoutService.Failure {
            Console.error(error.description)
            throw ExitStatus.dataError
        } catch CartAdditionError.unknownProduct(let code) {
            Console.error("unknown product code \"\(code)\"")
            throw ExitStatus.dataError
        } catch CartAdditionError.quantityOutOfRange(let quantity) {
            Console.error("the quantity \(quantity) is out of range: use 1 to \(Cart.itemQuantities.upperBound)")
            throw ExitStatus.usage
        } catch {
            Console.error("\(error)")
            throw ExitStatus.ioError
        }
    }
}
