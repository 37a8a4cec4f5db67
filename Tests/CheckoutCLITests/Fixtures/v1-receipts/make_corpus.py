#!/usr/bin/env python3
"""Writes a v1 corpus: a catalog, a v1 promotions file and carts (deterministic, seed 2026).

The expected receipts next to them (`*.expected.ndjson`) were written by the v1 pricing code before
promotions v2 existed (commit 9f70d61) and must not be regenerated: they pin that a v1-only file still
prices as it did, its receipts only gaining each line's `promotions` list.
"""
import json, random

rng = random.Random(2026)
products = []
prices = ["0", "0.01", "0.99", "1", "2.5", "5", "7.5", "7.5", "12", "19.99", "20", "49.95", "100", "1234.56"]
for i, price in enumerate(prices):
    products.append({"code": f"P{i:02d}", "name": f"Product {i}", "price": price})
with open("Products.json", "w") as f:
    json.dump({"currency": "EUR", "products": products}, f, indent=1)
    f.write("\n")

codes = [p["code"] for p in products]
dates = ["2026-01-01T00:00:00Z", "2026-06-01T00:00:00Z", "2026-12-01T00:00:00Z", "2027-01-01T00:00:00Z"]

def targets():
    chosen = rng.sample(codes + ["GHOST"], rng.randint(1, 3))
    if len(chosen) == 1 and rng.random() < 0.5:
        return f"<key>code</key><string>{chosen[0]}</string>"
    return "<key>codes</key><array>" + "".join(f"<string>{c}</string>" for c in chosen) + "</array>"

rules = []
for i in range(60):
    kind = rng.choice(["combo", "bulk", "percent", "amount", "cart", "cart"] if i % 7 else ["combo", "bulk"])
    body = f"<key>name</key><string>R{i} {kind}</string><key>type</key><string>{kind}</string>"
    if kind == "combo":
        n = rng.randint(2, 5)
        body += targets() + f"<key>quantity</key><integer>{n}</integer><key>paid</key><integer>{rng.randint(0, n - 1)}</integer>"
    elif kind == "bulk":
        body += targets() + f"<key>quantity</key><integer>{rng.randint(1, 6)}</integer><key>price</key><real>{rng.choice(['0', '1.5', '4.99', '7', '11', '18', '45'])}</real>"
    elif kind == "percent":
        body += targets() + f"<key>percent</key><real>{rng.choice(['5', '12.5', '33.33', '50', '100', '0.01'])}</real>"
        if rng.random() < 0.5: body += f"<key>quantity</key><integer>{rng.randint(1, 4)}</integer>"
    elif kind == "amount":
        body += targets() + f"<key>amount</key><string>{rng.choice(['0.01', '0.5', '1', '3.33', '8'])}</string>"
        if rng.random() < 0.5: body += f"<key>quantity</key><integer>{rng.randint(1, 4)}</integer>"
    else:
        if rng.random() < 0.5:
            body += f"<key>percent</key><real>{rng.choice(['3', '10', '12.5', '25'])}</real>"
        else:
            body += f"<key>amount</key><real>{rng.choice(['1', '5', '10.01', '500'])}</real>"
        if rng.random() < 0.7: body += f"<key>minimum</key><real>{rng.choice(['0', '10', '30', '99.99', '250'])}</real>"
    if rng.random() < 0.3: body += f"<key>priority</key><integer>{rng.randint(-2, 3)}</integer>"
    if rng.random() < 0.15: body += f"<key>coupon</key><string>{rng.choice(['SPRING', 'vip', 'Xmas'])}</string>"
    if rng.random() < 0.08: body += "<key>enabled</key><false/>"
    if rng.random() < 0.25:
        a, b = sorted(rng.sample(range(len(dates)), 2))
        if rng.random() < 0.7: body += f"<key>start</key><date>{dates[a]}</date>"
        body += f"<key>end</key><date>{dates[b]}</date>"
    rules.append("<dict>" + body + "</dict>")
with open("Promotions.plist", "w") as f:
    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<array>\n')
    for r in rules: f.write(r + "\n")
    f.write("</array>\n</plist>\n")

instants = ["2026-03-01T12:00:00Z", "2026-07-15T00:00:00Z", "2026-12-24T18:30:00Z", "2027-02-01T00:00:00Z"]
with open("carts.ndjson", "w") as f:
    for i in range(600):
        items = []
        for _ in range(rng.randint(0, 7)):
            code = rng.choice(codes)
            r = rng.random()
            if r < 0.4: items.append(code)
            elif r < 0.9: items.append({"code": code, "quantity": rng.randint(1, 12)})
            else: items.append({"code": code, "quantity": rng.choice([999, 1000, 123457, 1000000000])})
        cart = {"at": rng.choice(instants), "items": items}
        if rng.random() < 0.3: cart["coupons"] = rng.sample(["spring", "VIP", "XMAS", "nothing"], rng.randint(1, 2))
        f.write(json.dumps(cart, separators=(",", ":")) + "\n")
