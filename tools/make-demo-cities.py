#!/usr/bin/env python3
"""Builds tenants/demo/data/cities.csv from the GeoNames cities in ../shared/data (CC BY 4.0).

Keeps the cities of 100,000+ inhabitants. Weight is the population. A name shared by several cities keeps
its plain form for the most populous one; the others get ", <country>" (a short country name), and where
that still repeats, the coordinates. Names are compared as the catalog engine folds them (case, accents and
punctuation aside: "San Jose" and "San José" are one name), since it refuses two rows that fold alike. The
ASCII name, when GeoNames has one that folds differently, becomes an alias.

Run from the repository root:  python3 tools/make-demo-cities.py ../shared/data tenants/demo/data/cities.csv
"""
import csv
import re
import sys
import unicodedata
from collections import Counter

source, target = sys.argv[1], sys.argv[2]
# Everyday short names where the ISO name is long or formal.
SHORT = {"US": "United States", "GB": "United Kingdom", "RU": "Russia", "KR": "South Korea",
         "KP": "North Korea", "IR": "Iran", "VE": "Venezuela", "BO": "Bolivia", "TZ": "Tanzania",
         "SY": "Syria", "VN": "Vietnam", "LA": "Laos", "MD": "Moldova", "TW": "Taiwan",
         "CD": "DR Congo", "CG": "Congo", "CZ": "Czechia", "NL": "Netherlands", "PH": "Philippines"}
# Well-known names in other languages that GeoNames does not give as the ASCII name.
EXTRA_ALIASES = {"Köln": ["Cologne"]}


def fold(text):
    """As dev.autocomplete.spi.toolkit.TextFolding: no case, no accents, punctuation as single spaces."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.category(c).startswith("M"))
    return re.sub(r"[\W_]+", " ", plain.lower()).strip()

countries = {}
with open(f"{source}/countries.csv", encoding="utf-8") as f:
    for row in csv.DictReader(f):
        countries[row["code"]] = SHORT.get(row["code"], re.sub(r"\s*\(.*?\)", "", row["name"]).strip())

cities = []
with open(f"{source}/cities.csv", encoding="utf-8") as f:
    for row in csv.DictReader(f):
        if int(row["population"]) >= 100_000:
            cities.append(row)
cities.sort(key=lambda r: -int(r["population"]))

seen = Counter()
taken = set()
rows = []
for city in cities:
    name = city["name"].strip()
    key = fold(name)
    country = countries.get(city["country"], city["country"])
    detail = "" if seen[key] == 0 else f", {country}"
    if fold(name + detail) in taken:
        lat, lon = float(city["latitude"]), float(city["longitude"])
        detail = f", {country} ({abs(lat):.1f}°{'N' if lat >= 0 else 'S'} {abs(lon):.1f}°{'E' if lon >= 0 else 'W'})"
    text = name + detail
    taken.add(fold(text))
    seen[key] += 1
    aliases = []
    ascii_name = city["ascii_name"].strip()
    # An ASCII name of one or two letters is a slip in the source (Laayoune's is "MA"), not a spelling people type:
    # as an alias it would put the city in every list that starts with those letters.
    if len(fold(ascii_name)) > 2 and fold(ascii_name) != key:
        aliases.append(ascii_name + detail)
    aliases += EXTRA_ALIASES.get(text, [])
    rows.append((text, city["population"], "|".join(aliases)))

with open(target, "w", encoding="utf-8", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["text", "weight", "aliases"])
    w.writerows(rows)
print(f"{len(rows)} cities written to {target}")
