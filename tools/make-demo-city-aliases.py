#!/usr/bin/env python3
"""Gives the demo's cities the aliases people type: a few everyday short names, and the IATA city codes of the
200 largest cities (tools/data/demo-city-codes.csv).

The codes come from OpenTravelData (github.com/opentraveldata/opentraveldata, CC BY 4.0), the file
opentraveldata/optd_por_best_known_so_far.csv, whose city rows (`CODE-C-geonamesid`) carry the city's GeoNames
coordinates. A demo city takes the code of the city row nearest to its own GeoNames coordinates (from the shared
cities.csv), within 0.1 degree; a code near several demo cities goes to the nearest. A code is left out when it
would hide a name being typed: when it is the first word of another city's name (LOS for Lagos against
"Los Angeles"); when it, or its first two letters, start names of other cities that weigh together at least a
quarter of its own city (SHA for Shanghai against Shantou and Sharjah, KAN for Kano against Kanpur), unless the
city's own name starts with those two letters; or when its first letter is not its city's (BOM for Mumbai): a
code matches from its first letter, as any alias, and would put its city among the names being typed.

  derive (needs the OPTD file; writes tools/data/demo-city-codes.csv):
    python3 tools/make-demo-city-aliases.py derive OPTD_POR_BEST_KNOWN_SO_FAR.csv ../shared/data/cities.csv
  apply (reads only committed files; adds the aliases to tenants/demo/data/cities.csv, other columns kept):
    python3 tools/make-demo-city-aliases.py apply
"""
import csv
import math
import re
import sys
import unicodedata

DEMO = "tenants/demo/data/cities.csv"
CODES = "tools/data/demo-city-codes.csv"
LARGEST = 200
NEAR = 0.1
# Everyday short names (not IATA codes), by the demo city's text.
SHORT_NAMES = {"New York City": ["NYC"], "Los Angeles": ["LA"], "San Francisco": ["SF"],
               "Rio de Janeiro": ["Rio"], "Mexico City": ["CDMX"]}


def fold(text):
    """As dev.autocomplete.spi.toolkit.TextFolding: no case, no accents, punctuation as single spaces."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.category(c).startswith("M"))
    return re.sub(r"[\W_]+", " ", plain.lower()).strip()


def distance(lat1, lon1, lat2, lon2):
    return math.hypot(lat1 - lat2, (lon1 - lon2) * math.cos(math.radians(lat1)))


def read_demo():
    with open(DEMO, encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        return reader.fieldnames, list(reader)


def derive(optd, shared):
    _, demo = read_demo()
    places = {}
    with open(shared, encoding="utf-8") as f:
        for row in csv.DictReader(f):
            places.setdefault((row["name"].strip(), row["population"]), row)
    city_rows = []
    with open(optd, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("^")
            key = fields[0].split("-")
            if len(key) == 3 and key[1] == "C":
                city_rows.append((fields[0], fields[1], float(fields[2]), float(fields[3])))
    largest = sorted(demo, key=lambda r: -int(r["weight"]))[:LARGEST]
    best = {}  # code -> (distance, demo text, optd key)
    for city in largest:
        place = places[(city["text"].split(",")[0], city["weight"])]
        lat, lon = float(place["latitude"]), float(place["longitude"])
        key, code, clat, clon = min(city_rows, key=lambda r: distance(lat, lon, r[2], r[3]))
        d = distance(lat, lon, clat, clon)
        if d <= NEAR and (code not in best or d < best[code][0]):
            best[code] = (d, city["text"], key)
    weights = {fold(r["text"]): int(r["weight"]) for r in demo}
    rows = []
    for code, (_, text, key) in best.items():
        folded = fold(code)
        first_word = any(t.split(" ")[0] == folded for t in weights if t != fold(text))
        own = fold(text)

        def crowds(start):
            return sum(w for t, w in weights.items() if t.startswith(start) and t != own) >= weights[own] / 4

        crowded = crowds(folded) or (not own.startswith(folded[:2]) and crowds(folded[:2]))
        if not first_word and not crowded and own[0] == folded[0]:
            rows.append((text, code, key))
    rows.sort(key=lambda r: -weights[fold(r[0])])
    with open(CODES, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["text", "code", "optd_key"])
        w.writerows(rows)
    print(f"{len(rows)} city codes written to {CODES}")


def apply():
    fields, demo = read_demo()
    aliases = {text: list(names) for text, names in SHORT_NAMES.items()}
    with open(CODES, encoding="utf-8") as f:
        for row in csv.DictReader(f):
            aliases.setdefault(row["text"], []).append(row["code"])
    for city in demo:
        have = [a for a in city["aliases"].split("|") if a]
        folded = {fold(a) for a in have} | {fold(city["text"])}
        for alias in aliases.pop(city["text"], []):
            if fold(alias) not in folded:
                have.append(alias)
                folded.add(fold(alias))
        city["aliases"] = "|".join(have)
    if aliases:
        sys.exit(f"no demo city named {sorted(aliases)}")
    with open(DEMO, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(demo)


if __name__ == "__main__":
    if sys.argv[1:2] == ["derive"] and len(sys.argv) == 4:
        derive(sys.argv[2], sys.argv[3])
    elif sys.argv[1:] == ["apply"]:
        apply()
    else:
        sys.exit(__doc__)
