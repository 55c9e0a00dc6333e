#!/usr/bin/env python3
"""Builds tenants/demo/data/cities.csv from the GeoNames cities in ../shared/data (CC BY 4.0).

Keeps the cities of 100,000+ inhabitants. Weight is the population. A name shared by several cities keeps
its plain form for the most populous one; the others get ", <country>" (a short country name), and where
that still repeats, the coordinates. The ASCII name, when GeoNames has one that differs, becomes an alias.

Run from the repository root:  python3 tools/make-demo-cities.py ../shared/data tenants/demo/data/cities.csv
"""
import csv
import re
import sys
from collections import Counter

source, target = sys.argv[1], sys.argv[2]
# Everyday short names where the ISO name is long or formal.
SHORT = {"US": "United States", "GB": "United Kingdom", "RU": "Russia", "KR": "South Korea",
         "KP": "North Korea", "IR": "Iran", "VE": "Venezuela", "BO": "Bolivia", "TZ": "Tanzania",
         "SY": "Syria", "VN": "Vietnam", "LA": "Laos", "MD": "Moldova", "TW": "Taiwan",
         "CD": "DR Congo", "CG": "Congo", "CZ": "Czechia", "NL": "Netherlands", "PH": "Philippines"}
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
    key = name.lower()
    country = countries.get(city["country"], city["country"])
    text = name if seen[key] == 0 else f"{name}, {country}"
    if text in taken:
        lat, lon = float(city["latitude"]), float(city["longitude"])
        text = f"{name}, {country} ({abs(lat):.1f}°{'N' if lat >= 0 else 'S'} {abs(lon):.1f}°{'E' if lon >= 0 else 'W'})"
    taken.add(text)
    seen[key] += 1
    aliases = []
    if city["ascii_name"] and city["ascii_name"] != name:
        aliases.append(city["ascii_name"])
    rows.append((text, city["population"], "|".join(aliases)))

with open(target, "w", encoding="utf-8", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["text", "weight", "aliases"])
    w.writerows(rows)
print(f"{len(rows)} cities written to {target}")
