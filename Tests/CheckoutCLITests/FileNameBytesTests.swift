import Foundation
import Testing

/// File names that are not UTF-8 (docs/safety.md): Linux names files by bytes, and a name written in
/// Latin-1 (`caf\351.json`) is a file like any other. Its argument reaches Swift as text with U+FFFD
/// for the bad byte; the file is still the one opened.
@Suite("File names that are not UTF-8")
struct FileNameBytesTests {
    /// Runs `script` in `directory` with `sh`, `$0` being the checkout binary: the shell's `printf`
    /// makes the names' bytes, which Foundation's strings cannot carry.
    func shell(_ script: String, in directory: URL) throws -> Run {
        try start(
            ["-c", script, checkoutBinary.path], in: directory, executable: URL(fileURLWithPath: "/bin/sh")
        ).wait()
    }

    /// A catalog of one mug at 7.50.
    static let oneMug = #"{"currency": "EUR", "products": [{"code": "MUG", "name": "Mug", "price": 7.5}]}"#

    /// A directory holding the one-mug catalog as `catalog` and a promotions file of none, `p.plist`.
    func oneMugNoPromotions(catalog: String) throws -> URL {
        try temporaryDirectory([catalog: Self.oneMug, "p.plist": "<plist><array/></plist>"])
    }

    @Test("a cart, a catalog and a promotions file named in Latin-1 are read, as arguments and as --option=value")
    func latin1Names() throws {
        let dir = try temporaryDirectory([
            "Products.json": Self.oneMug,
            "p.plist":
                "<plist><array><dict><key>name</key><string>Mugs</string><key>type</key><string>percent</string><key>code</key><string>MUG</string><key>percent</key><integer>10</integer></dict></array></plist>"
        ])
        let run = try shell(
            """
            cart=$(printf 'caf\\351.json'); catalog=$(printf 'cat\\377.json'); rules=$(printf 'r\\376.plist')
            printf '["MUG", "MUG"]' > "$cart"; cp Products.json "$catalog"; cp p.plist "$rules"
            "$0" price "$cart" --catalog="$catalog" --promotions "$rules" --format json | grep '"total"' || exit 1
            "$0" validate "$rules" --catalog "$catalog"
            """, in: dir)
        // 2 × 7.50 = 15.00, 10 % off: 13.50.
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""total": "13.50""#))
        #expect(run.stdout.hasSuffix("0 errors, 0 warnings in 1 file\n"))
        // A name that is not there is still "cannot open", exit 66, with U+FFFD where the byte was.
        let missing = try shell(#""$0" price "$(printf 'no\377.json')" --catalog Products.json"#, in: dir)
        #expect(missing.status == 66)
        #expect(missing.stderr == "error: no\u{FFFD}.json: cannot open: No such file or directory\n")
    }

    @Test("two names read as one text name no file: neither is read in the other's place")
    func sameText() throws {
        let dir = try oneMugNoPromotions(catalog: "Products.json")
        // c\377 and c\376 both read as "c\u{FFFD}.json": one cart of 1 mug, one of 3.
        let run = try shell(
            """
            printf '["MUG"]' > "$(printf 'c\\377.json')"; printf '["MUG", "MUG", "MUG"]' > "$(printf 'c\\376.json')"
            "$0" price "$(printf 'c\\377.json')" "$(printf 'c\\376.json')" --catalog Products.json --promotions p.plist
            """, in: dir)
        #expect(run.status == 66)
        #expect(!run.stdout.contains("7.50"))
        #expect(
            run.stderr.contains(
                "c\u{FFFD}.json: cannot open: two names given read as this same text (their bytes are not UTF-8), so it names no one file; rename one of the files"
            ))
    }

    @Test("-c=value and $CHECKOUT_CATALOG take such a name too; a store's path must be UTF-8")
    func optionsAndStore() throws {
        let dir = try oneMugNoPromotions(catalog: "c.json")
        let run = try shell(
            """
            cp c.json "$(printf 'cat\\351.json')"
            "$0" validate p.plist -c="$(printf 'cat\\351.json')" || exit 1
            CHECKOUT_CATALOG="$(printf 'cat\\351.json')" "$0" validate p.plist || exit 2
            "$0" cart show --store "$(printf 'st\\351.sqlite')" -c c.json -p p.plist
            """, in: dir)
        #expect(run.stdout == "0 errors, 0 warnings in 1 file\n0 errors, 0 warnings in 1 file\n")
        #expect(run.status == 74)
        #expect(
            run.stderr
                == "error: st\u{FFFD}.sqlite: a store's path must be UTF-8 (this one is not); give another --store path\n"
        )
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("st\u{FFFD}.sqlite").path))
    }

    @Test("a customer id whose bytes are not UTF-8 is refused (64): it would be read as U+FFFD, every such id's text")
    func customerID() throws {
        let dir = try oneMugNoPromotions(catalog: "Products.json")
        let run = try shell(
            """
            "$0" cart add MUG --customer "$(printf 'caf\\351')" --store s.sqlite --catalog Products.json --promotions p.plist
            """, in: dir)
        #expect(run.status == 64)
        #expect(
            run.stderr.hasPrefix(
                "error: --customer: the id's bytes are not UTF-8 text (shown as \"caf\u{FFFD}\"); give the id in UTF-8\n"
            ))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("s.sqlite").path))
        // A U+FFFD typed as such is UTF-8: an id like any other.
        let typed = try shell(
            """
            "$0" cart add MUG --customer "caf\u{FFFD}" --store s.sqlite --catalog Products.json --promotions p.plist
            """, in: dir)
        #expect(typed.status == 0, "\(typed.stderr)")
    }
}
