"""The peer a Python user would write: orjson and a Counter. Prints the cart's total.

Usage: python3 orjson_cart.py Products.json cart.json
"""
import sys
from collections import Counter
from decimal import Decimal

import orjson

catalog = orjson.loads(open(sys.argv[1], "rb").read())
cents = {p["code"]: int(Decimal(str(p["price"])) * 100) for p in catalog["products"]}
counts = Counter()
document = orjson.loads(open(sys.argv[2], "rb").read().removeprefix(b"\xef\xbb\xbf"))
for item in document["items"] if isinstance(document, dict) else document:
    if isinstance(item, str):
        counts[item] += 1
    else:
        counts[item["code"]] += item.get("quantity", 1)
total = sum(cents[code] * quantity for code, quantity in counts.items())
print(f"{total // 100}.{total % 100:02d}")
