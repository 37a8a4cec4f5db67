import Glibc
import Platform
import Testing

@Suite("FileSystem.resolved: one path for every name of a file")
struct ResolvedPathTests {
    /// A fresh directory under /tmp, its own path resolved (/tmp may itself be a link).
    func directory() throws -> String {
        var template = Array("/tmp/checkout-resolved-XXXXXX".utf8CString)
        let made = try #require(mkdtemp(&template))
        return FileSystem.resolved(String(cString: made))
    }

    @Test("a file, a link to it, a link to the link, and .. all give the file's path")
    func existing() throws {
        let dir = try directory()
        try FileSystem.write([1], to: dir + "/store.sqlite")
        #expect(symlink(dir + "/store.sqlite", dir + "/link.sqlite") == 0)
        #expect(symlink("link.sqlite", dir + "/relative.sqlite") == 0)
        try FileSystem.makeDirectory(dir + "/sub")
        for name in ["/store.sqlite", "/link.sqlite", "/relative.sqlite", "/sub/../store.sqlite", "//store.sqlite"] {
            #expect(FileSystem.resolved(dir + name) == dir + "/store.sqlite", "\(name)")
        }
    }

    @Test("a file not there yet: its directory resolved, its name kept; through a link, where the link points")
    func missing() throws {
        let dir = try directory()
        try FileSystem.makeDirectory(dir + "/real")
        #expect(symlink(dir + "/real", dir + "/dirlink") == 0)
        #expect(FileSystem.resolved(dir + "/dirlink/new.sqlite") == dir + "/real/new.sqlite")
        // A dangling link: the file it will create.
        #expect(symlink("real/store.sqlite", dir + "/dangling.sqlite") == 0)
        #expect(FileSystem.resolved(dir + "/dangling.sqlite") == dir + "/real/store.sqlite")
        // No such directory: as given.
        #expect(FileSystem.resolved(dir + "/none/store.sqlite") == dir + "/none/store.sqlite")
        // A loop of links ends.
        #expect(symlink(dir + "/b", dir + "/a") == 0)
        #expect(symlink(dir + "/a", dir + "/b") == 0)
        #expect(FileSystem.resolved(dir + "/a").hasPrefix(dir))
    }

    @Test("a relative path is made absolute from the current directory")
    func relative() throws {
        let cwd = try #require(getcwd(nil, 0))
        defer { free(cwd) }
        let here = FileSystem.resolved(String(cString: cwd))
        #expect(FileSystem.resolved("no-such-store.sqlite") == here + "/no-such-store.sqlite")
    }
}
