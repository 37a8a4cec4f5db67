import Foundation
import Testing

/// Runs `checkout` in a pseudo-terminal `columns` wide, answering each prompt (a regular
/// expression) with the text after it; returns what the person saw and the exit status.
func inTerminal(
    _ arguments: [String], columns: Int = 80, answers: [(String, String)] = [], in directory: URL = packageRoot,
    environment: [String: String] = [:]
) throws -> (screen: String, status: Int32) {
    let driver = packageRoot.appendingPathComponent("Tests/CheckoutCLITests/Fixtures/terminal.py").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
        ["python3", driver, String(columns)] + answers.flatMap { [$0.0, $0.1] } + ["--", checkoutBinary.path]
        + arguments
    process.currentDirectoryURL = directory
    var env = ProcessInfo.processInfo.environment
    env["TERM"] = "xterm"
    env.removeValue(forKey: "NO_COLOR")
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    let status = text.split(separator: "\n").last.flatMap { Int32($0.dropFirst(5)) } ?? -1
    return (String(text.dropLast(text.split(separator: "\n").last.map { $0.count + 1 } ?? 0)), status)
}

@Suite("At a terminal, as a person sees it", .serialized)
struct TerminalTests {
    func store() throws -> [String] {
        let dir = try temporaryDirectory()
        return ["--store", dir.appendingPathComponent("store.sqlite").path]
    }

    @Test("pay asks for the card with echo off for the number and CVC, checks each field at once and asks again alone")
    func payPrompts() throws {
        let store = try store()
        try checkout(["cart", "add", "MUG"] + store)
        let run = try inTerminal(
            ["pay"] + store,
            answers: [
                ("Card number: ", "4242 4242 4242 4241"), ("Card number: ", "4242 4242 4242 4242"),
                ("Expiry \\(MM/YY\\): ", "13/30"), ("Expiry \\(MM/YY\\): ", "12/30"), ("CVC: ", "12"), ("CVC: ", "123")
            ])
        #expect(run.status == 0)
        #expect(run.screen.contains("! the card number is not valid (check digit)\nCard number: "))
        #expect(run.screen.contains("! the expiry must be MM/YY, such as 04/28\nExpiry (MM/YY): "))
        #expect(run.screen.contains("12/30"))  // the expiry is echoed
        #expect(run.screen.contains("! the CVC must be 3 or 4 digits\nCVC: "))
        #expect(run.screen.contains("Payment approved: order #1, 7.50 €, card •••• 4242"))
        for secret in ["4242 4242 4242 4242", "4242 4242 4242 4241", "123\n"] {
            #expect(!run.screen.contains(secret), "\(secret) was shown")
        }
    }

    @Test("shop: the card number and CVC are not shown as they are typed")
    func shopPrompts() throws {
        let store = try store()
        let run = try inTerminal(
            ["shop"] + store,
            answers: [
                ("\\[q\\]uit > ", "3"), ("\\[q\\]uit > ", "c"), ("\\[q\\]uit > ", "k"), ("\\[q\\]uit > ", "y"),
                ("Card number \\(\\[b\\]ack\\) > ", "4242 4242 4242 4242"), ("Expiry \\(MM/YY\\) > ", "12/30"),
                ("CVC > ", "987"), ("\\[q\\]uit > ", "q")
            ])
        #expect(run.status == 0)
        #expect(run.screen.contains("Payment approved: order #1, 7.50 €, card •••• 4242."))
        #expect(!run.screen.contains("4242 4242 4242 4242"))
        #expect(!run.screen.contains("987"))
        #expect(run.screen.contains("12/30"))
    }

    /// The screen without colour codes, line by line.
    func visibleLines(_ screen: String) -> [String] {
        screen.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression).split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
    }

    @Test("receipts, cart show and orders fit 40 and 100 columns: names shortened with …, amounts whole, colour on")
    func layout() throws {
        let store = try store()
        for (code, quantity) in [("VOUCHER", "3"), ("TSHIRT", "3"), ("MUG", "1")] {
            try checkout(["cart", "add", code, "--quantity", quantity] + store)
        }
        for columns in [40, 100] {
            let receipt = try inTerminal(
                ["price", "Rules/carts/example-4.json", "--at", "2026-11-21T10:00:00Z"], columns: columns)
            #expect(receipt.status == 0)
            let lines = visibleLines(receipt.screen).filter { !$0.isEmpty }
            #expect(lines.allSatisfy { $0.count <= columns }, "\(lines)")
            #expect(lines.contains { $0.hasSuffix("74.50 €") && $0.hasPrefix("Total") })
            #expect(lines.contains { $0.hasSuffix("-5.00 €") })
            #expect(receipt.screen.contains("\u{1B}[1m"))  // the total stands out
            if columns == 40 {
                #expect(lines.contains { $0.contains("…") })
            } else {
                #expect(lines.contains { $0.contains("Cabify Coffee Mug") })
            }
            let shown = try inTerminal(["cart", "show"] + store, columns: columns)
            #expect(visibleLines(shown.screen).allSatisfy { $0.count <= columns })
            #expect(visibleLines(shown.screen).contains { $0.hasPrefix("Total") && $0.hasSuffix("74.50 €") })
        }
        try checkout(["pay", "--card-stdin"] + store, stdin: "4242424242424242\n12/30\n123\n")
        let orders = try inTerminal(["orders"] + store, columns: 40)
        #expect(visibleLines(orders.screen).allSatisfy { $0.count <= 40 })
        #expect(visibleLines(orders.screen).first?.hasPrefix("#1  ") == true)
        #expect(orders.screen.contains("74.50 €"))
        let plain = try inTerminal(
            ["price", "Rules/carts/example-4.json"], columns: 100, environment: ["NO_COLOR": "1"])
        #expect(!plain.screen.contains("\u{1B}["))
    }

    @Test("the shop's screens fit 40 columns")
    func shopLayout() throws {
        let store = try store()
        let run = try inTerminal(
            ["shop"] + store, columns: 40,
            answers: [("\\[q\\]uit > ", "2 3"), ("\\[q\\]uit > ", "c"), ("\\[q\\]uit > ", "q")])
        #expect(run.status == 0)
        let lines = visibleLines(run.screen).filter {
            !$0.contains("[q]uit") && !$0.hasPrefix("Checkout shop") && !$0.hasPrefix("Add a product")
        }
        #expect(lines.allSatisfy { $0.count <= 40 }, "\(lines.filter { $0.count > 40 })")
        #expect(lines.contains { $0.contains("60.00 €") })
    }
}
