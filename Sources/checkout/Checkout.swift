import ArgumentParser
import DiagnosticReporters
import InputFiles
import Platform
import Pricing
import Receipts
import Suggestions

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
        version: ToolInfo.version,
        subcommands: [
            Price.self, Validate.self, Diff.self, Products.self, Shop.self, CartCommand.self, Pay.self, Orders.self,
            Bench.self
        ])

    static func main() {
        Machine.ignoreBrokenPipeSignal()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = unknownCommand(in: arguments) {
            Console.error(problem)
            Machine.exit(ExitStatus.usage.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { OutputStream.standardOutput.write(message + "\n") }
                try? OutputStream.standardOutput.flush()
            } else if !message.isEmpty {
                // One spelling of the prefix everywhere: `error:`, as the commands' own messages.
                let text = message.hasPrefix("Error: ") ? "error: " + message.dropFirst(7) : message
                OutputStream.standardError.write(text + "\n")
            }
            try? OutputStream.standardError.flush()
            Machine.exit(code.rawValue)
        }
    }

    /// A command name that names no command, with what was probably meant: `checkout prise`,
    /// `checkout cart ad`, `checkout help prise`.
    static func unknownCommand(in arguments: [String]) -> String? {
        var command: ParsableCommand.Type = Checkout.self
        var path = ["checkout"]
        var words = arguments[...]
        if words.first == "help" { words = words.dropFirst() }
        while let word = words.first, !word.hasPrefix("-") {
            let subcommands = command.configuration.subcommands
            guard !subcommands.isEmpty else { return nil }
            let names =
                subcommands.compactMap { $0.configuration.commandName } + (command == Checkout.self ? ["help"] : [])
            guard let next = subcommands.first(where: { $0.configuration.commandName == word }) else {
                if word == "help" { return nil }
                let hint = CodeSuggestions(codes: names).suggestion(for: word).map { "; did you mean '\($0)'?" } ?? ""
                return
                    "unknown command '\(path.joined(separator: " ")) \(word)'\(hint) (see '\(path.joined(separator: " ")) --help')"
            }
            command = next
            path.append(word)
            words = words.dropFirst()
        }
        return nil
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
        OutputStream.standardError.write(errorStyle.paint("error:", .error) + " \(message)\n")
    }

    /// Red `error:` on a terminal, unless NO_COLOR.
    static let errorStyle = TextStyle(
        width: nil,
        colour: FileDescriptor.standardError.isTerminal
            && (Machine.environment("NO_COLOR").map(\.isEmpty) ?? true) && Machine.environment("TERM") != "dumb")

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
