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

    @Test("a cart, a catalog and a promotions file named in Latin-1 are read, as arguments and as --option=value")
    func latin1Names() throws {
        let dir = try temporaryDirectory([
            "Products.json": #"{"currency": "EUR", "products": [{"code": "MUG", "name": "Mug", "price": 7.5}]}"#,
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
        #expect(run.stdout.hasPrefix(#""total":"13.50""#) || run.stdout.contains(#""total": "13.50""#))
        #expect(run.stdout.hasSuffix("0 errors, 0 warnings in 1 file\n"))
        // A name that is not there is still "cannot open", exit 66, with U+FFFD where the byte was.
        let missing = try shell(#""$0" price "$(printf 'no\377.json')" --catalog Products.json"#, in: dir)
        #expect(missing.status == 66)
        #expect(missing.stderr == "error: no\u{FFFD}.json: cannot open: No such file or directory\n")
    }
}
