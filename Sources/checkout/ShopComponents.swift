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

    /// Runs a store operation; a store failure ends the run with its message and exit 74.
    func run<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CheckoutService.Failure {
            Console.error(error.description)
            throw ExitStatus.dataError
        } catch {
            Console.error("\(error)")
            throw ExitStatus.ioError
        }
    }
}
