import ArgumentParser
import BatchPricing
import InputFiles
import Platform

/// The environment variables that stand in for options left out, so that a user sets their store's
/// files once (`export CHECKOUT_CATALOG=~/shop/Products.json`). An empty variable counts as unset.
enum EnvironmentDefault {
    static let promotions = "CHECKOUT_PROMOTIONS"
    static let catalog = "CHECKOUT_CATALOG"
    /// `--customers`, for the customer groups of the shopping commands.
    static let customers = "CHECKOUT_CUSTOMERS"

    /// The variable's value, when set and not empty.
    static func value(_ name: String) -> String? {
        Machine.environment(name).flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// How the shell completes each kind of file a command takes.
extension CompletionKind {
    static let promotionsFile = CompletionKind.file(extensions: ["plist"])
    static let catalogFile = CompletionKind.file(extensions: ["json"])
    static let cartFile = CompletionKind.file(extensions: ["json", "ndjson", "jsonl"])
    static let storeFile = CompletionKind.file(extensions: ["sqlite"])
}

/// Standard input can be read once: at most one of a command's file arguments may be `-`.
/// `inputs` are the files given, each with what names it (`a cart`, `--promotions`); `other` is
/// another use the command makes of standard input, if any.
func checkStandardInputReadOnce(_ inputs: [(what: String, path: String?)], alsoReads other: String? = nil) throws {
    let readers = inputs.filter { $0.path == "-" }.map(\.what) + (other.map { [$0] } ?? [])
    guard readers.count > 1 else { return }
    // Each reader once, with how many times: "2 carts", not "a cart, a cart".
    var counted: [(what: String, times: Int)] = []
    for reader in readers {
        if let index = counted.firstIndex(where: { $0.what == reader }) {
            counted[index].times += 1
        } else {
            counted.append((reader, 1))
        }
    }
    let names = counted.map { what, times in
        times == 1 ? what : what.hasPrefix("a ") ? "\(times) \(what.dropFirst(2))s" : "\(what) (\(times) times)"
    }
    throw ValidationError(
        "standard input can be read only once, but - is given for \(names.joined(separator: ", ")): give files for all but one"
    )
}

extension CompletionKind {
    /// The catalog's product codes that begin with what is typed, the catalog
    /// being the one the command line names (`-c`/`--catalog`), else the one the command would
    /// read by default. Nothing when it cannot be read: completion never prints an error.
    static let productCode = CompletionKind.custom { words, _, prefix in
        ProductCodeCompletion.codes(words: words, prefix: prefix)
    }
}

enum ProductCodeCompletion {
    static func codes(words: [String], prefix: String) -> [String] {
        var path: String?
        for (index, word) in words.enumerated() {
            if word == "-c" || word == "--catalog", index + 1 < words.count {
                path = words[index + 1]
            } else if word.hasPrefix("--catalog=") {
                path = String(word.dropFirst("--catalog=".count))
            }
        }
        // Words come as the shell has them: quotes around a path are not part of it.
        path = path.map {
            String($0.drop { $0 == "\"" || $0 == "'" }.reversed().drop { $0 == "\"" || $0 == "'" }.reversed())
        }
        let option = path ?? EnvironmentDefault.value(EnvironmentDefault.catalog)
        guard option != "-",
            let catalog = try? PricingRules.loadCatalog(
                RulesSource.resolve(option, default: "Products.json"), limit: InputLimits.default.maxFileSize)
        else { return [] }
        return catalog.products.map(\.code).filter { $0.hasPrefix(prefix) }
    }
}
