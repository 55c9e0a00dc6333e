#!/usr/bin/env python3
"""One large write to a catalog, and what it costs another catalog's writes.

Generates RECORDS NDJSON records and sends them to catalog BIG with METHOD (PUT replaces the catalog, POST upserts
into it, PATCH changes the weight of the records a PUT or POST of as many wrote); meanwhile a one-record POST goes to catalog SMALL every 200 ms until the large write is answered. Prints
the large write's status and time, and the small writes' statuses and latencies (p50, p90, max). Before catalog
writes were versioned (a replace or a large upsert written a chunk a transaction, then switched to), the small
writes waited for the whole large write's transaction: 6.8 s for a PUT of 600,000 records, 11.6 s for a POST, 10 s
(then 503) for a PATCH.

Usage: benchmarks/write-isolation.py URL SECRET_KEY BIG SMALL PUT|POST|PATCH RECORDS
  e.g. benchmarks/write-isolation.py http://127.0.0.1:8080 sk_v1_... bulk tickets PUT 600000
The key must be a secret key with the catalogs use and a rate high enough not to answer 429
(./autocomplete keys create --type secret --scopes catalogs --rate 1000 ...), and the tenant must declare both
catalogs (`bulk: {}` and `tickets: {}` under `catalogs`).
"""
import json
import sys
import threading
import time
import urllib.error
import urllib.request


def call(method, url, key, body, content_type):
    request = urllib.request.Request(url, data=body, method=method,
                                     headers={"Authorization": "Bearer " + key, "Content-Type": content_type})
    start = time.time()
    try:
        with urllib.request.urlopen(request, timeout=900) as response:
            response.read()
            return response.status, time.time() - start
    except urllib.error.HTTPError as e:
        return e.code, time.time() - start


def main():
    if len(sys.argv) != 7:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    url, key, big, small, method, records = sys.argv[1:6] + [int(sys.argv[6])]
    if method == "PATCH":
        lines = (json.dumps({"id": "sku-%07d" % i, "weight": 7}) for i in range(records))
    else:
        lines = (json.dumps({"id": "sku-%07d" % i, "text": "Product %d quantum item" % i, "weight": i % 100})
                 for i in range(records))
    body = "".join(line + "\n" for line in lines).encode()
    answered = threading.Event()
    result = {}

    def large():
        result["large"] = call(method, "%s/api/catalogs/%s/options" % (url, big), key, body, "application/x-ndjson")
        answered.set()

    thread = threading.Thread(target=large)
    thread.start()
    latencies, statuses, n = [], {}, 0
    while not answered.is_set():
        n += 1
        record = json.dumps([{"id": "t%d" % n, "text": "Ticket %d" % n}]).encode()
        status, seconds = call("POST", "%s/api/catalogs/%s/options" % (url, small), key, record, "application/json")
        latencies.append(seconds)
        statuses[status] = statuses.get(status, 0) + 1
        time.sleep(0.2)
    thread.join()
    latencies.sort()
    print("%s of %d records to %s: %d in %.1f s" % (method, records, big, result["large"][0], result["large"][1]))
    print("one-record POSTs to %s meanwhile: %d, statuses %s, p50 %.3f s, p90 %.3f s, max %.3f s" % (
        small, len(latencies), statuses, latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.9)],
        latencies[-1]))


if __name__ == "__main__":
    main()
