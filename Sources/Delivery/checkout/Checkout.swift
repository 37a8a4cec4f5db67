import ArgumentParser
import InputFiles
import Platform
import Pricing
import Receipts
import Reporters
import Suggestions

@main
struct Checkout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkout",
        abstract: "Price carts against promotion rules, and check promotion files before they ship.",
        discussion: """
            Exit codes: 0 success; 1 validation errors found, some carts of a batch failed, or a \
            payment was not made (declined, an empty cart, a changed total); 64 usage error; 65 \
            malformed or invalid input data; 66 an input file cannot be opened; 74 the output could not \
            be written (a full disk), or the store cannot be used; 141 the reader of the output went \
            away (as in `checkout price day.ndjson | head`), ended quietly as a process killed by SIGPIPE \
            is. Options left out take their files from $CHECKOUT_PROMOTIONS, $CHECKOUT_CATALOG, \
            $CHECKOUT_CUSTOMERS and $CHECKOUT_STORE.
            """,
        version: ToolInfo.version,
        subcommands: [
            Price.self, Validate.self, Diff.self, Products.self, Shop.self, CartCommand.self, Pay.self, Orders.self,
            Bench.self
        ])

    static func main() {
        Machine.ignoreBrokenPipeSignal()
        // A closed pipe (`checkout price … | head`) ends the run at once and quietly, with the status
        // a shell gives a process killed by SIGPIPE; any other write error stays loud (exit 74).
        OutputStream.standardOutput.brokenPipeExitStatus = ExitStatus.brokenPipe
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = unknownCommand(in: arguments) {
            Console.error(problem)
            Machine.exit(ExitStatus.usage.rawValue)
        }
        var parsed: ParsableCommand?
        do {
            var command = try parseAsRoot(arguments)
            parsed = command
            try command.run()
        } catch {
            let code = exitCode(for: error)
            // A usage error found while running is the command's own: its usage, not the root's.
            let message = parsed.map { usageMessage(for: error, in: type(of: $0)) } ?? fullMessage(for: error)
            if code == .success {
                // Help, the version, a completion script: cut short, it is a failure, said so.
                if !message.isEmpty { OutputStream.standardOutput.write(message + "\n") }
                do {
                    try OutputStream.standardOutput.flush()
                } catch {
                    Console.error(error.description)
                    try? OutputStream.standardError.flush()
                    Machine.exit(ExitStatus.ioError.rawValue)
                }
            } else if !message.isEmpty {
                // One spelling of the prefix everywhere: `error:`, as the commands' own messages.
                let text = message.hasPrefix("Error: ") ? "error: " + message.dropFirst(7) : message
                OutputStream.standardError.write(text + "\n")
            }
            try? OutputStream.standardError.flush()
            Machine.exit(code.rawValue)
        }
    }

    /// The message for `error`, thrown by `command` while running: a usage error with the command's
    /// own usage line, as one found while parsing has.
    static func usageMessage(for error: Error, in command: ParsableCommand.Type) -> String {
        guard let problem = error as? ValidationError, let path = path(to: command) else {
            return fullMessage(for: error)
        }
        return """
            error: \(problem.message)
            Usage: \(usageString(for: command))
              See '\(path.joined(separator: " ")) --help' for more information.
            """
    }

    /// `["checkout", "cart", "add"]` for `CartCommand.Add`.
    static func path(to command: ParsableCommand.Type, from root: ParsableCommand.Type = Checkout.self) -> [String]? {
        let name = root.configuration.commandName ?? ""
        if root == command { return [name] }
        for subcommand in root.configuration.subcommands {
            if let rest = path(to: command, from: subcommand) { return [name] + rest }
        }
        return nil
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

/// The exit codes of docs/command-line.md (the BSD sysexits values), plus 74 for output failures.
enum ExitStatus {
    static let success = ExitCode.success
    static let failures = ExitCode(1)
    static let usage = ExitCode(64)
    static let dataError = ExitCode(65)
    static let noInput = ExitCode(66)
    static let ioError = ExitCode(74)
    /// 128 + SIGPIPE: what a shell reports for a process killed by SIGPIPE (`cat`, `git`, `jq`…).
    static let brokenPipe: Int32 = 141

    static func forInput(_ error: InputError) -> ExitCode {
        error.kind == .unreadable ? noInput : dataError
    }
}

/// Messages for the user, on standard error.
enum Console {
    static func error(_ message: String) {
        OutputStream.standardError.write(errorStyle.paint("error:", .error) + " \(message.withoutControlCharacters)\n")
    }

    /// Red `error:` on a terminal, unless NO_COLOR.
    static let errorStyle = TextStyle(
        width: nil,
        colour: FileDescriptor.standardError.isTerminal
            && (Machine.environment("NO_COLOR").map(\.isEmpty) ?? true) && Machine.environment("TERM") != "dumb")

    static func warning(_ message: String) {
        OutputStream.standardError.write("warning: \(message.withoutControlCharacters)\n")
    }

    static func note(_ message: String) {
        OutputStream.standardError.write("note: \(message.withoutControlCharacters)\n")
    }

    /// Flushes standard output; a failed write ends the run with a message and exit 74 (a closed
    /// pipe: 141). `changed` says what the command changed in the store, if anything: the change
    /// stays made, and standard error says so, since the output that would have said it is lost
    /// (docs/store.md); `repeats`: whether running the command again would make the change again.
    static func finishOutput(changed: String? = nil, repeats: Bool = true) throws {
        let output = OutputStream.standardOutput
        // A command that changed the store says so even when the reader of its output went away:
        // the closed pipe is then noticed here rather than ending the run unseen.
        if changed != nil { output.brokenPipeExitStatus = nil }
        do {
            try output.flush()
        } catch {
            let note = changed.map {
                "the store was changed all the same: \($0)"
                    + (repeats ? " (running the command again would repeat it)" : "")
            }
            if error.isBrokenPipe {
                // The reader is gone: end as a closed pipe ends every command (141), but say what changed.
                if let note { OutputStream.standardError.write("note: \(note.withoutControlCharacters)\n") }
                throw ExitCode(ExitStatus.brokenPipe)
            }
            Console.error(error.description + (note.map { "; " + $0 } ?? ""))
            throw ExitStatus.ioError
        }
    }
}

/// Output of commands that print reports rather than receipts: text or JSON.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
