#!/usr/bin/env python3
"""Distinct padded suggest bodies sent on purpose against a running server: what they leave on its heap.

Each body asks the same query with a member of PAD_BYTES the reader skips ("pad", shape "junk") or one suggestion on
screen of that length ("recently_suggested", shape "recent"), made distinct by a counter, so that every one is a
response-cache miss whose key holds all of data. Prints the status codes. Read the heap before and after with
`jcmd PID GC.run` then `jcmd PID GC.heap_info` (the server's PID).

Usage: benchmarks/padded-bodies.py URL PUBLIC_KEY COUNT [junk|recent] [PAD_BYTES]
  e.g. benchmarks/padded-bodies.py http://127.0.0.1:8080 pk_v1_... 6000 junk 60000
The key needs a rate limit high enough not to answer 429 (./autocomplete keys create ... --rate 100000).
"""
import http.client
import json
import sys
import urllib.parse
import uuid


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    url = urllib.parse.urlparse(sys.argv[1])
    key, count = sys.argv[2], int(sys.argv[3])
    shape = sys.argv[4] if len(sys.argv) > 4 else "junk"
    pad = "A" * (int(sys.argv[5]) if len(sys.argv) > 5 else 60000)
    connection = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=30)
    codes = {}
    for i in range(count):
        data = {"raw_query": "Lo", "completed_params": []}
        if shape == "recent":
            data["recently_suggested"] = [{"type": "origin", "text": pad + str(i)}]
        else:
            data["pad"] = pad + str(i)
        body = json.dumps({"data": data, "meta": {"request_id": str(uuid.uuid4()),
                                                   "request_at": "2026-12-05T10:15:30Z", "language": "en-US"}})
        connection.request("POST", "/api/suggest", body,
                           {"Content-Type": "application/json", "Authorization": "Bearer " + key})
        response = connection.getresponse()
        response.read()
        codes[response.status] = codes.get(response.status, 0) + 1
    print(json.dumps(codes))


if __name__ == "__main__":
    main()
