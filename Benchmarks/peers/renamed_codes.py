"""A catalog that moved on: the generator's catalog and promotions with every code renamed.

Usage: python3 renamed_codes.py Products.json Promotions.plist COUNT DIR
Writes DIR/Products.json (the generator's products, each code P0123 renamed SKU000123) and
DIR/Unknown.plist: the generator's first COUNT promotions, their codes renamed OLD000123 (three
edits from the catalog's SKU000123, the farthest "did you mean" reaches for nine characters), laid
out as Xcode writes plists (every element on its own line, tab-indented), not as the generator does.
"""
import json
import re
import sys
from pathlib import Path

products, plist, count, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
out.mkdir(parents=True, exist_ok=True)


def renamed(prefix, code):
    return prefix + code[1:].rjust(6, "0")


catalog = json.loads(Path(products).read_text())
for product in catalog["products"]:
    product["code"] = renamed("SKU", product["code"])
(out / "Products.json").write_text(json.dumps(catalog, indent=1) + "\n")

body = Path(plist).read_text().split("<array>\n", 1)[1]
rows = ['<?xml version="1.0" encoding="UTF-8"?>',
        '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
        '<plist version="1.0">', "<dict>", "\t<key>currency</key>", "\t<string>EUR</string>",
        "\t<key>promotions</key>", "\t<array>"]
for promotion in re.findall(r"    <dict>\n(.*?)    </dict>\n", body, re.S)[:count]:
    rows.append("\t\t<dict>")
    for line in promotion.splitlines():
        line = re.sub(r"<string>(P\d+)</string>", lambda m: "<string>" + renamed("OLD", m.group(1)) + "</string>",
                      line.strip())
        key, value = re.match(r"(<key>.*?</key>)(.*)", line).groups()
        rows.append("\t\t\t" + key)
        if value.startswith("<array>"):
            rows.append("\t\t\t<array>")
            rows += ["\t\t\t\t" + item for item in re.findall(r"<string>.*?</string>", value)]
            rows.append("\t\t\t</array>")
        else:
            rows.append("\t\t\t" + value)
    rows.append("\t\t</dict>")
rows += ["\t</array>", "</dict>", "</plist>"]
(out / "Unknown.plist").write_text("\n".join(rows) + "\n")
