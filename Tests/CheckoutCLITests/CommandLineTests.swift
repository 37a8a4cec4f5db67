import Foundation
import Testing

/// The command line as people meet it: mistyped commands, help, listing products, one `error:` spelling.
@Suite("The command line", .serialized)
struct CommandLineTests {
    @Test("a mistyped command says what was meant; help for an unknown command is a usage error")
    func didYouMean() throws {
        let prise = try checkout(["prise", "cart.json"])
        #expect(prise.status == 64)
        #expect(
            prise.stderr == "error: unknown command 'checkout prise'; did you mean 'price'? (see 'checkout --help')\n")
        let ad = try checkout(["cart", "ad", "MUG"])
        #expect(ad.status == 64)
        #expect(
            ad.stderr == "error: unknown command 'checkout cart ad'; did you mean 'add'? (see 'checkout cart --help')\n"
        )
        let help = try checkout(["help", "prise"])
        #expect(help.status == 64)
        #expect(help.stderr.hasPrefix("error: unknown command 'checkout prise'; did you mean 'price'?"))
        let fine = try checkout(["help", "price"])
        #expect(fine.status == 0)
        #expect(fine.stdout.contains("USAGE: checkout price"))
        let option = try checkout(["price", "--formt", "json", "x.json"])
        #expect(option.status == 64)
        #expect(option.stderr.hasPrefix("error: Unknown option '--formt'. Did you mean '--format'?"))
    }

    @Test("products lists the catalog in text and JSON")
    func products() throws {
        let text = try checkout(["products"])
        #expect(text.status == 0)
        #expect(
            text.stdout == """
                CODE     NAME                 PRICE
                VOUCHER  Cabify Voucher      5.00 €
                TSHIRT   Cabify T-Shirt     20.00 €
                MUG      Cabify Coffee Mug   7.50 €

                """)
        let json = try CheckoutCLITests.json(checkout(["products", "--format", "json"]).stdout)
        #expect((json["products"] as? [[String: Any]])?.map { $0["price"] as? String } == ["5.00", "20.00", "7.50"])
    }

    @Test("a byte order mark is accepted in carts, batch lines and catalogs")
    func byteOrderMark() throws {
        let bom = "\u{FEFF}"
        let dir = try temporaryDirectory([
            "cart.json": bom + #"["VOUCHER", "VOUCHER"]"#,
            "day.ndjson": bom + #"["MUG"]"# + "\n" + #"["TSHIRT"]"# + "\n",
            "c.json": bom + #"{"products": [{"code": "MUG", "price": 2}]}"#, "m.json": bom + #"["MUG"]"#
        ])
        #expect(
            try CheckoutCLITests.json(checkout(["price", "cart.json", "--format", "json"], in: dir).stdout)["total"]
                as? String == "5.00")
        let batch = try checkout(["price", "day.ndjson", "--format", "json"], in: dir)
        #expect(batch.status == 0)
        #expect(batch.stdout.split(separator: "\n").count == 2)
        #expect(
            try CheckoutCLITests.json(
                checkout(["price", "m.json", "--catalog", "c.json", "--format", "json"], in: dir).stdout)["total"]
                as? String == "2.00")
    }

    @Test("two carts on standard input without --batch: the message suggests --batch")
    func severalCartsOnStdin() throws {
        let run = try checkout(["price", "-"], stdin: #"["MUG"]"# + "\n" + #"["TSHIRT"]"# + "\n")
        #expect(run.status == 65)
        #expect(
            run.stderr.hasSuffix(
                "; it looks like several carts, one per line: give --batch (or name the file *.ndjson)\n"))
    }

    @Test("cart add with another letter case suggests the code")
    func productSuggestion() throws {
        let dir = try temporaryDirectory()
        let run = try checkout(["cart", "add", "mug", "--store", dir.appendingPathComponent("s.sqlite").path])
        #expect(run.status == 65)
        #expect(run.stderr == "error: unknown product code \"mug\"; did you mean \"MUG\"?\n")
    }
}
