import ArgumentParser
import InputFiles
import Platform

@main
struct Checkout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkout",
        abstract: "Price carts against promotion rules, and check promotion files before they ship.",
        discussion: """
            Exit codes: 0 success; 1 validation errors found, or some carts of a batch failed; \
            64 usage error; 65 malformed or invalid input data; 66 an input file cannot be opened; \
            74 the output could not be written.
            """,
        version: "1.0.0",
        subcommands: [Price.self, Validate.self, Diff.self, Shop.self, CartCommand.self, Pay.self, Orders.self, Bench.self])

    static func main() {
        Machine.ignoreBrokenPipeSignal()
        main(nil)
    }
}

/// The exit codes of SPEC §8 (the BSD sysexits values), plus 74 for output failures.
enum ExitStatus {
    static let failures = ExitCode(1)
    static let usage = ExitCode(64)
    static let dataError = ExitCode(65)
    static let noInput = ExitCode(66)
    static let ioError = ExitCode(74)

    static func forInput(_ error: InputError) -> ExitCode {
        error.kind == .unreadable ? noInput : dataError
    }
}

/// Messages for the user, on standard error.
enum Console {
    static func error(_ message: String) {
        OutputStream.standardError.write("error: \(message)\n")
    }

    static func warning(_ message: String) {
        OutputStream.standardError.write("warning: \(message)\n")
    }

    /// Flushes standard output; a failed write ends the run with a message and exit 74.
    static func finishOutput() throws {
        do {
            try OutputStream.standardOutput.flush()
        } catch {
            Console.error(error.description)
            throw ExitStatus.ioError
        }
    }
}

/// Output of commands that print reports rather than receipts: text or JSON.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
