#!/usr/bin/env python3
"""Long queries sent on purpose against a running server, and what they cost another client.

Attacker threads send suggest requests whose raw_query is a product's prompt, a random word (so the response cache
never answers) and REPS repeats of "on 12 " (a cue word and a date: every span is a question to the date engine), as
fast as the server answers; meanwhile a victim sends "Book a flight from Lo" every 50 ms for 15 s and its latencies
are reported (p50, p99, max), with the status codes the attackers got.

Usage: benchmarks/long-queries.py URL PUBLIC_KEY REPS THREADS
  e.g. benchmarks/long-queries.py http://127.0.0.1:8080 pk_v1_... 8300 2   (a 50 KB query)
       benchmarks/long-queries.py http://127.0.0.1:8080 pk_v1_... 160 2    (the longest accepted, 1,000 characters)
The key must be a travel key of the demo tenant with a rate limit high enough not to answer 429
(./autocomplete keys create ... --rate 100000).
"""
import datetime
import json
import random
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid


def post(url, key, query):
    body = json.dumps({
        "data": {"raw_query": query},
        "meta": {"request_id": str(uuid.uuid4()),
                 "request_at": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")},
    }).encode()
    request = urllib.request.Request(url + "/api/suggest", body,
                                     {"Authorization": "Bearer " + key, "Content-Type": "application/json"})
    start = time.time()
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as e:
        status = e.code
    return status, time.time() - start


def main():
    url, key, reps, threads = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    stop = threading.Event()
    codes = {}
    lock = threading.Lock()

    def attack():
        while not stop.is_set():
            query = "Book a flight from z%d " % random.randrange(10 ** 9) + "on 12 " * reps
            status, _ = post(url, key, query)
            with lock:
                codes[status] = codes.get(status, 0) + 1

    attackers = [threading.Thread(target=attack) for _ in range(threads)]
    for attacker in attackers:
        attacker.start()
    time.sleep(1)
    latencies = []
    end = time.time() + 15
    while time.time() < end:
        latencies.append(post(url, key, "Book a flight from Lo")[1])
        time.sleep(0.05)
    stop.set()
    for attacker in attackers:
        attacker.join()
    latencies.sort()
    print("attack: %d repeats of 'on 12 ' from %d threads, statuses %s; victim: %d requests, p50 %.1f ms, "
          "p99 %.1f ms, max %.1f ms" % (reps, threads, codes, len(latencies), 1000 * latencies[len(latencies) // 2],
                                        1000 * latencies[int(len(latencies) * 0.99)], 1000 * latencies[-1]))


if __name__ == "__main__":
    main()
