"""Writes a generated cart (an array of {"code", "quantity"} objects) the ways other writers spell it.

Usage: python3 respell.py cart.json DIR
Writes DIR/compact.json (an object, fields first, no blanks), DIR/crlf.json (CRLF, indented, keys in
the other order, fields after the items), DIR/bom.json (a byte order mark, a compact array),
DIR/escaped.json (every code with an escape) and DIR/python.json (json.dumps(indent=2)).
"""
import json
import sys
from pathlib import Path

items = json.loads(Path(sys.argv[1]).read_text())
out = Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
(out / "compact.json").write_text(json.dumps({"id": "c-1", "currency": "EUR", "items": items}, separators=(",", ":")))
lines = ",\r\n".join(f'    {{\r\n      "quantity": {i["quantity"]},\r\n      "code": "{i["code"]}"\r\n    }}' for i in items)
(out / "crlf.json").write_bytes(
    ('{\r\n  "items": [\r\n' + lines + '\r\n  ],\r\n  "currency": "EUR",\r\n  "id": 17\r\n}\r\n').encode())
(out / "bom.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(items, separators=(",", ":")).encode())
(out / "escaped.json").write_text(
    "[" + ", ".join(f'{{"code": "\\u{ord(i["code"][0]):04x}{i["code"][1:]}", "quantity": {i["quantity"]}}}' for i in items) + "]")
(out / "python.json").write_text(json.dumps({"items": items, "currency": "EUR"}, indent=2))
