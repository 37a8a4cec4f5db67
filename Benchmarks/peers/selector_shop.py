"""A large catalog and promotions on its brands, tags and categories: the shape of a file that
once made `validate --catalog` run for minutes (docs/performance.md, "Promotions on selectors").

Writes DIR/Products.json (100,000 products: 20 brands, 5 tags, 9 categories, 200,000 possible
prices) and DIR/Promotions.plist (50,000 line promotions: 15 % on selectors, among them every
product, a brand, a tag, a category less a tag; the others on 1 to 4 codes; windows, coupons and
priorities now and then). Deterministic: the same files on every run.

    python3 selector_shop.py DIR
"""
import json
import os
import random
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
r = random.Random(14)
brands = [f"Brand{i}" for i in range(20)]
tags = ["sale", "new", "eco", "gift", "bulk"]
categories = ["Clothing > Shirts", "Clothing > Pants", "Clothing > Shoes", "Home > Kitchen", "Home > Garden",
              "Toys", "Books", "Food > Fresh", "Food > Dry"]
products = []
for i in range(100_000):
    product = {"code": f"P{i:06d}", "name": f"Product {i}", "price": r.randint(1, 200_000) / 100}
    if r.random() < 0.8:
        product["brand"] = r.choice(brands)
    if r.random() < 0.7:
        product["tags"] = r.sample(tags, r.randint(1, 2))
    if r.random() < 0.8:
        product["category"] = r.choice(categories)
    products.append(product)
json.dump({"currency": "EUR", "products": products}, open(f"{out}/Products.json", "w"))

def strings(values):
    return "<array>" + "".join(f"<string>{v}</string>" for v in values) + "</array>"

selectors = ["<dict/>"] + [f"<dict><key>brands</key>{strings([b])}</dict>" for b in brands[:5]] + [
    f"<dict><key>tags</key>{strings([t])}</dict>" for t in tags[:3]] + [
    f"<dict><key>categories</key>{strings(['Clothing'])}<key>exclude_tags</key>{strings(['eco'])}</dict>",
    f"<dict><key>categories</key>{strings(['Home', 'Toys'])}</dict>"]
dates = ["2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z", "2026-06-01T00:00:00Z", "2026-12-31T23:59:59Z",
         "2030-01-01T00:00:00Z"]
lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<plist version="1.0">', "<dict><key>promotions</key><array>"]
for i in range(50_000):
    kind = r.choice(["combo", "bulk", "percent", "amount", "percent", "combo"])
    d = [f"<key>id</key><string>p{i}</string>", f"<key>name</key><string>Promotion {i}</string>",
         f"<key>type</key><string>{kind}</string>"]
    if r.random() < 0.15:
        d.append(f"<key>products</key>{r.choice(selectors)}")
    else:
        d.append(f"<key>codes</key>{strings(f'P{r.randrange(100_000):06d}' for _ in range(r.randint(1, 4)))}")
    if kind == "combo":
        q = r.randint(2, 5)
        d.append(f"<key>quantity</key><integer>{q}</integer><key>paid</key><integer>{r.randint(0, q - 1)}</integer>")
    elif kind == "bulk":
        d.append(f"<key>quantity</key><integer>{r.randint(2, 6)}</integer>"
                 f"<key>price</key><real>{r.choice([0.5, 1, 5, 7, 18])}</real>")
    elif kind == "percent":
        d.append(f"<key>percent</key><real>{r.choice([5, 10, 12.5, 20, 33.33, 50])}</real>")
        if r.random() < 0.3:
            d.append(f"<key>cap</key><real>{r.choice([1, 5, 50, 1000])}</real>")
    else:
        d.append(f"<key>amount</key><string>{r.choice(['0.01', '0.50', '1.00', '5.00'])}</string>")
    if r.random() < 0.2:
        a, b = sorted(r.sample(range(len(dates)), 2))
        d.append(f"<key>start</key><date>{dates[a]}</date><key>end</key><date>{dates[b]}</date>")
    if r.random() < 0.3:
        d.append(f"<key>priority</key><integer>{r.randint(0, 2)}</integer>")
    if r.random() < 0.1:
        d.append(f"<key>coupon</key><string>{r.choice(['VIP', 'WELCOME'])}</string>")
    lines.append("<dict>" + "".join(d) + "</dict>")
lines += ["</array></dict>", "</plist>"]
open(f"{out}/Promotions.plist", "w").write("\n".join(lines) + "\n")
