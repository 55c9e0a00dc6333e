#!/usr/bin/env python3
"""Gives the demo's cities the aliases people type: a few everyday short names (NYC, New York, LA, SF, Rio, CDMX: ordinary
aliases, matched by prefix like names), and the IATA city codes of the 200 largest cities as codes (`=LON`: matched
only when a typed span is the whole code, and offered after the names that start with it, so a code never hides a
name being typed; docs/configuration.md).

The codes come from OpenTravelData (github.com/opentraveldata/opentraveldata, CC BY 4.0), the file
opentraveldata/optd_por_best_known_so_far.csv, whose city rows (`CODE-C-geonamesid`) carry the city's GeoNames
coordinates. A demo city takes the code of the city row nearest to its own GeoNames coordinates (from the shared
cities.csv), within 0.1 degree; a code near several demo cities goes to the nearest. Every code so found is kept:
the whole-only rule replaced the exclusions of crowded starts this script made before. A city whose code is already
one of its ordinary aliases keeps the ordinary one (NYC). The largest cities left without a code, and why, are
written to tools/data/demo-cities-without-code.csv: no OPTD city row within 0.1 degree (the city has no airport code
of its own, or OPTD places it elsewhere), or the code went to a nearer demo city.

  derive (needs the OPTD file; writes tools/data/demo-city-codes.csv and tools/data/demo-cities-without-code.csv):
    python3 tools/make-demo-city-aliases.py derive OPTD_POR_BEST_KNOWN_SO_FAR.csv ../shared/data/cities.csv
  apply (reads only committed files; sets the aliases of tenants/demo/data/cities.csv, other columns kept):
    python3 tools/make-demo-city-aliases.py apply
"""
import csv
import math
import re
import sys
import unicodedata

DEMO = "tenants/demo/data/cities.csv"
CODES = "tools/data/demo-city-codes.csv"
WITHOUT = "tools/data/demo-cities-without-code.csv"
LARGEST = 200
NEAR = 0.1
# Everyday short names (not IATA codes), by the demo city's text.
SHORT_NAMES = {"New York City": ["NYC", "New York"], "Los Angeles": ["LA"], "San Francisco": ["SF"],
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
    nearest = {}  # demo text -> (code, distance)
    for city in largest:
        place = places[(city["text"].split(",")[0], city["weight"])]
        lat, lon = float(place["latitude"]), float(place["longitude"])
        key, code, clat, clon = min(city_rows, key=lambda r: distance(lat, lon, r[2], r[3]))
        d = distance(lat, lon, clat, clon)
        nearest[city["text"]] = (code, d)
        if d <= NEAR and (code not in best or d < best[code][0]):
            best[code] = (d, city["text"], key)
    weights = {r["text"]: int(r["weight"]) for r in demo}
    rows = sorted(((text, code, key) for code, (_, text, key) in best.items()), key=lambda r: -weights[r[0]])
    with open(CODES, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["text", "code", "optd_key"])
        w.writerows(rows)
    coded = {text for text, _, _ in rows}
    without = []
    for city in largest:
        if city["text"] in coded:
            continue
        code, d = nearest[city["text"]]
        if d > NEAR:
            without.append((city["text"], f"no OPTD city within {NEAR} degree (nearest: {code}, {d:.2f} degree away)"))
        else:
            without.append((city["text"], f"{code} is nearer to {best[code][1]}"))
    with open(WITHOUT, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["text", "reason"])
        w.writerows(without)
    print(f"{len(rows)} city codes written to {CODES}; {len(without)} of the {LARGEST} largest without one: {WITHOUT}")


def apply():
    fields, demo = read_demo()
    short = {text: list(names) for text, names in SHORT_NAMES.items()}
    codes = {}
    with open(CODES, encoding="utf-8") as f:
        for row in csv.DictReader(f):
            codes[row["text"]] = row["code"]
    unknown = (set(short) | set(codes)) - {city["text"] for city in demo}
    if unknown:
        sys.exit(f"no demo city named {sorted(unknown)}")
    for city in demo:
        text = city["text"]
        code = codes.get(text)
        everyday = short.get(text, [])
        # Codes written before (=CODE, or bare as they were until codes were whole-only) are set again from the file.
        have = [a for a in city["aliases"].split("|")
                if a and not a.startswith("=") and (code is None or fold(a) != fold(code) or a in everyday)]
        folded = {fold(a) for a in have} | {fold(text)}
        for alias in everyday:
            if fold(alias) not in folded:
                have.append(alias)
                folded.add(fold(alias))
        if code is not None and fold(code) not in folded:
            have.append("=" + code)
        city["aliases"] = "|".join(have)
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
