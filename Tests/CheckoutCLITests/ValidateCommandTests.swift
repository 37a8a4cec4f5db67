import Foundation
import Testing

@Suite("checkout validate, end to end", .serialized)
struct ValidateCommandTests {
    static let broken = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <array>
          <dict>
            <key>name</key><string>Mugs</string>
            <key>type</key><string>combo</string>
            <key>code</key><string>MUGG</string>
            <key>quantity</key><integer>2</integer>
            <key>paid</key><integer>3</integer>
          </dict>
        </array>
        </plist>
        """
    static let warningsOnly = """
        <plist><array><dict><key>name</key><string>Old</string><key>type</key><string>cart</string><key>amount</key><integer>1</integer>
        <key>end</key><date>2026-01-01T00:00:00Z</date></dict></array></plist>
        """

    func directory() throws -> URL {
        try temporaryDirectory([
            "broken.plist": Self.broken, "old.plist": Self.warningsOnly,
            "Products.json": try String(
                contentsOf: packageRoot.appendingPathComponent("Rules/Products.json"), encoding: .utf8)
        ])
    }

    @Test("the shipped promotions are clean: exit 0")
    func clean() throws {
        let run = try checkout(["validate", "Rules/Promotions.plist", "--catalog", "Rules/Products.json"])
        #expect(run.status == 0)
        #expect(run.stdout == "0 errors, 0 warnings in 1 file\n")
        #expect(run.stderr == "")
    }

    @Test("errors: every one reported, exit 1")
    func errors() throws {
        let run = try checkout(
            ["validate", "broken.plist", "--catalog", "Products.json", "--at", "2026-11-21T10:00:00Z"], in: directory())
        #expect(run.status == 1)
        #expect(
            run.stdout == """
                broken.plist:7:20: error: unknown product code `MUGG`: the catalog has no such product; did you mean `MUG`? [promotion.unknown-code]
                broken.plist:9:20: error: `paid` must be from 0 to 1 (less than `quantity`, 2), not 3 [promotion.invalid-value]
                2 errors, 0 warnings in 1 file

                """)
    }

    @Test("a promotion named after its coupon: clean unless --exposed-coupons asks, then a warning at its dict")
    func exposedCoupons() throws {
        let plist = """
            <plist version="1.0"><array>
              <dict><key>id</key><string>spring-10</string><key>name</key><string>Spring 10 %</string>
                <key>type</key><string>cart</string><key>percent</key><integer>10</integer>
                <key>coupon</key><string>SPRING</string></dict>
            </array></plist>

            """
        let dir = try temporaryDirectory(["coupon.plist": plist])
        let plain = try checkout(["validate", "coupon.plist", "--strict"], in: dir)
        #expect(plain.status == 0)
        #expect(plain.stdout == "0 errors, 0 warnings in 1 file\n")
        let asked = try checkout(["validate", "coupon.plist", "--exposed-coupons"], in: dir)
        #expect(asked.status == 0)
        #expect(
            asked.stdout == """
                coupon.plist:2:3: warning: the promotion's id and name contain its coupon (in some letter case): receipts and explanations show them, so anyone would learn the coupon; choose words that do not contain it [promotion.coupon-exposed]
                0 errors, 1 warning in 1 file

                """)
        #expect(try checkout(["validate", "coupon.plist", "--exposed-coupons", "--strict"], in: dir).status == 1)
    }

    @Test("warnings pass, unless --strict")
    func strict() throws {
        let dir = try directory()
        let lenient = try checkout(["validate", "old.plist", "--at", "2026-11-21T10:00:00Z"], in: dir)
        #expect(lenient.status == 0)
        #expect(lenient.stdout.hasSuffix("0 errors, 1 warning in 1 file\n"))
        #expect(
            try checkout(["validate", "old.plist", "--at", "2026-11-21T10:00:00Z", "--strict"], in: dir).status == 1)
        #expect(
            try checkout(["validate", "old.plist", "--at", "2025-11-21T10:00:00Z", "--strict"], in: dir).status == 0)
        // Without --at, "now" is after 2026-01-01.
        #expect(try checkout(["validate", "old.plist", "--strict"], in: dir).status == 1)
    }

    @Test("several files at once, one unreadable: every one in the report, in order, exit 66")
    func severalFiles() throws {
        let run = try checkout(
            [
                "validate", "old.plist", "missing.plist", "broken.plist", "--reporter", "json", "--at",
                "2026-11-21T10:00:00Z"
            ], in: directory())
        #expect(run.status == 66)
        #expect(run.stderr == "error: missing.plist: cannot read: No such file or directory\n")
        let report = try json(run.stdout)
        #expect(
            (report["files"] as? [[String: Any]])?.map { $0["path"] as? String } == [
                "old.plist", "missing.plist", "broken.plist"
            ])
        #expect(report["errors"] as? Int == 1)
        #expect(report["warnings"] as? Int == 1)
    }

    @Test("the github reporter prints valid workflow commands")
    func github() throws {
        let run = try checkout(
            ["validate", "broken.plist", "old.plist", "--reporter", "github", "--at", "2026-11-21T10:00:00Z"],
            in: directory())
        #expect(run.status == 1)
        #expect(
            run.stdout == """
                ::error file=broken.plist,line=9,col=20,title=promotion.invalid-value::`paid` must be from 0 to 1 (less than `quantity`, 2), not 3
                ::warning file=old.plist,line=2,col=15,title=promotion.expired::the promotion ended at 2026-01-01T00:00:00Z, before 2026-11-21T10:00:00Z: it no longer applies; remove it or move its `end`
                1 error, 1 warning in 2 files

                """)
    }

    @Test("every reporter runs, and nothing is written")
    func reportersWriteNothing() throws {
        let dir = try directory()
        let before = try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
        for reporter in ["text", "json", "github", "junit", "sarif"] {
            let run = try checkout(["validate", "broken.plist", "--reporter", reporter], in: dir)
            #expect(run.status == 1)
            #expect(!run.stdout.isEmpty)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == before)
    }

    @Test("usage and catalog errors: 64, 66, 65")
    func usageAndCatalog() throws {
        let dir = try directory()
        #expect(try checkout(["validate"], in: dir).status == 64)
        #expect(try checkout(["validate", "old.plist", "--at", "soon"], in: dir).status == 64)
        #expect(try checkout(["validate", "old.plist", "--reporter", "xml"], in: dir).status == 64)
        let missingCatalog = try checkout(["validate", "old.plist", "--catalog", "nope.json"], in: dir)
        #expect(missingCatalog.status == 66)
        #expect(missingCatalog.stderr == "error: nope.json: cannot open: No such file or directory\n")
        #expect(try checkout(["validate", "old.plist", "--catalog", "old.plist"], in: dir).status == 65)
    }

    @Test("malformed and hostile files get their IDs and lines")
    func hostile() throws {
        let dir = try temporaryDirectory([
            "truncated.plist": "<plist><array>\n<dict><key>name</key>",
            "entity.plist":
                "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n  <!ENTITY x SYSTEM \"file:///etc/passwd\">\n]>\n<plist><string>&x;</string></plist>"
        ])
        let run = try checkout(["validate", "truncated.plist", "entity.plist"], in: dir)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("truncated.plist:2:") && lines[0].hasSuffix("[xml.malformed]"))
        #expect(
            lines[1]
                == "entity.plist:3:3: error: forbidden XML: entity declarations are not allowed (entity \"x\") [xml.forbidden]"
        )
        #expect(!run.stdout.contains("root:"))
    }
}

@Suite("validate: a file that cannot be read is in every report", .serialized)
struct UnreadableReportTests {
    @Test("text, json, github, junit and sarif all account for it, and the run exits 66")
    func everyReporter() throws {
        let args = ["validate", "missing.plist", "Rules/Promotions.plist", "--reporter"]
        let text = try checkout(args + ["text"])
        #expect(text.status == 66)
        #expect(
            text.stdout
                == "missing.plist: error: cannot read: No such file or directory\n0 errors, 0 warnings in 2 files; 1 file could not be read\n"
        )
        let json = try checkout(args + ["json"])
        #expect(json.status == 66)
        let report = try CheckoutCLITests.json(json.stdout)
        #expect(report["unreadable"] as? Int == 1)
        #expect(
            (report["files"] as? [[String: Any]])?.first?["error"] as? String
                == "cannot read: No such file or directory")
        let github = try checkout(args + ["github"])
        #expect(
            github.stdout.hasPrefix(
                "::error file=missing.plist,title=file.unreadable::cannot read: No such file or directory\n"))
        let junit = try checkout(args + ["junit"])
        #expect(junit.stdout.contains(#"<testsuites name="checkout validate" tests="4" failures="0" errors="1">"#))
        #expect(
            junit.stdout.contains(#"<error type="file.unreadable" message="cannot read: No such file or directory">"#))
        let sarif = try CheckoutCLITests.json(checkout(args + ["sarif"]).stdout)
        let invocation = ((sarif["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first
        #expect(invocation?["executionSuccessful"] as? Bool == false)
        #expect(
            ((invocation?["toolExecutionNotifications"] as? [[String: Any]])?.first?["message"] as? [String: Any])?[
                "text"] as? String
                == "missing.plist: cannot read: No such file or directory")
    }

    @Test(
        "a file over --max-file-size is xml.forbidden whether it is named or comes on standard input (exit 1, not 66)")
    func sizeLimitOnStandardInput() throws {
        let plist = "<plist><array>" + String(repeating: "<dict/>", count: 40) + "</array></plist>\n"
        let dir = try temporaryDirectory(["p.plist": plist])
        let named = try checkout(["validate", dir.appendingPathComponent("p.plist").path, "--max-file-size", "100"])
        let piped = try checkout(["validate", "-", "--max-file-size", "100"], stdin: plist)
        #expect(named.status == 1 && piped.status == 1)
        #expect(
            named.stdout.hasSuffix(
                ":1:1: error: forbidden XML: the file is larger than 100 bytes [xml.forbidden]\n1 error, 0 warnings in 1 file\n"
            ))
        #expect(
            piped.stdout
                == "<stdin>:1:1: error: forbidden XML: the file is larger than 100 bytes [xml.forbidden]\n1 error, 0 warnings in 1 file\n"
        )
        // At the limit, it is read.
        #expect(try checkout(["validate", "-", "--max-file-size", "\(plist.utf8.count)"], stdin: plist).status == 1)
        #expect(
            try checkout(["validate", "-", "--max-file-size", "\(plist.utf8.count)"], stdin: plist).stdout.contains(
                "promotion.missing-key"))
    }

    @Test("a file whose size is over --max-file-size is refused before any byte is read, even one of zeros")
    func sizeKnownBeforeReading() throws {
        let dir = try temporaryDirectory()
        let zeros = dir.appendingPathComponent("zeros.plist")
        try Data(count: 20_000).write(to: zeros)
        let run = try checkout(["validate", zeros.path, "--max-file-size", "10000"])
        #expect(run.status == 1)
        // Before: libxml2 read the first zeros and said "Document is empty".
        #expect(
            run.stdout
                == "\(zeros.path):1:1: error: forbidden XML: the file is larger than 10000 bytes [xml.forbidden]\n1 error, 0 warnings in 1 file\n"
        )
    }
}
