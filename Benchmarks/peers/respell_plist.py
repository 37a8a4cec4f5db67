"""Writes a generated Promotions.plist the ways other writers lay it out, with the same promotions.

Usage: python3 respell_plist.py Promotions.plist DIR
Writes DIR/oneline.plist (each promotion on one line, no blanks), DIR/xcode.plist (every element on
its own line, tab-indented, as Xcode writes plists), DIR/crlf.plist (xcode.plist with CRLF line
ends), DIR/real.plist (every amount a <real>) and DIR/string.plist (every amount a <string>).
"""
import re
import sys
from pathlib import Path

text = Path(sys.argv[1]).read_text()
out = Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
head, body = text.split("<array>\n", 1)


def promotions():
    return re.findall(r"    <dict>\n(.*?)    </dict>\n", body, re.S)


# One line per promotion.
lines = [head.rstrip("\n").replace("\n  ", "").replace("\n", "") + "<array>"]
lines += ["<dict>" + "".join(l.strip() for l in p.splitlines()) + "</dict>" for p in promotions()]
lines.append("</array></dict></plist>")
(out / "oneline.plist").write_text("\n".join(lines) + "\n")

# Xcode: every element on its own line, tabs.
def xcode(newline):
    rows = ['<?xml version="1.0" encoding="UTF-8"?>',
            '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
            '<plist version="1.0">', "<dict>", "\t<key>currency</key>", "\t<string>EUR</string>",
            "\t<key>promotions</key>", "\t<array>"]
    for p in promotions():
        rows.append("\t\t<dict>")
        for line in p.splitlines():
            line = line.strip()
            key, value = re.match(r"(<key>.*?</key>)(.*)", line).groups()
            rows.append("\t\t\t" + key)
            if value.startswith("<array>"):
                rows.append("\t\t\t<array>")
                for item in re.findall(r"<string>.*?</string>", value):
                    rows.append("\t\t\t\t" + item)
                rows.append("\t\t\t</array>")
            else:
                rows.append("\t\t\t" + value)
        rows.append("\t\t</dict>")
    rows += ["\t</array>", "</dict>", "</plist>"]
    return newline.join(rows) + newline

(out / "xcode.plist").write_text(xcode("\n"))
(out / "crlf.plist").write_bytes(xcode("\r\n").encode())

# Every amount a <real>, or a <string>.
money = r"(<key>(?:price|amount|minimum|cap)</key>)<(?:string|real|integer)>([^<]*)</(?:string|real|integer)>"
(out / "real.plist").write_text(re.sub(money, r"\1<real>\2</real>", text))
(out / "string.plist").write_text(re.sub(money, r"\1<string>\2</string>", text))
