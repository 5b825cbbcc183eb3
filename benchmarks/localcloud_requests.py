"""The local cloud's cost per small request (issue 26, slice P1b).

A fresh cloud from occli.testing (5 servers booted by the demo user), and
for each of the small requests a warm ``occli server list`` and ``stack
event list`` send, ``--requests`` (1,000) of them:

* **app**: the WSGI application called in this process (no socket): the
  server's own time, median milliseconds, and its mean CPU;
* **http**: the same request over one keep-alive connection to the
  cloud's HTTP server (waitress in threads of this process): median
  milliseconds, client included.

The requests: ``GET /compute/v2.1/servers/detail`` (5 servers), Glance's
``GET /image/v2/images``, ``HEAD /v3/auth/tokens`` (the token checked
against itself) and Heat's ``GET /orchestration/v1/<project>/stacks``.
``--profile N`` prints a cProfile of request N (0-3) after the table.
Nothing is asserted: this reports speed (``python
benchmarks/localcloud_requests.py``; ``--json`` for one JSON object).
"""

import argparse
import cProfile
import http.client
import io
import json
import pstats
import statistics
import time
from urllib.parse import urlsplit

import occli.testing

SERVERS = 5


def _cases(fixture):
    """``[(method, path, headers)]`` of the small requests, after booting
    :data:`SERVERS` servers."""
    sess = fixture.session()
    token = sess.get_token()

    def path(service_type):
        return urlsplit(sess.get_endpoint(service_type=service_type, interface="public")).path

    compute = sess.get_endpoint(service_type="compute", interface="public")
    image = sess.get_endpoint(service_type="image", interface="public")
    image_id = sess.get(image + "/v2/images").json()["images"][0]["id"]
    flavor_id = sess.get(compute + "/flavors").json()["flavors"][0]["id"]
    for index in range(SERVERS):
        server = {"name": "s%d" % index, "imageRef": image_id, "flavorRef": flavor_id}
        sess.post(
            compute + "/servers",
            json={"server": dict(server, networks="none")},
            headers={"OpenStack-API-Version": "compute 2.37"},
        )
    auth = {"X-Auth-Token": token}
    return [
        ("GET", path("compute") + "/servers/detail", auth),
        ("GET", path("image") + "/v2/images", auth),
        ("HEAD", "/v3/auth/tokens", dict(auth, **{"X-Subject-Token": token})),
        ("GET", path("orchestration") + "/stacks", auth),
    ]


def _call(fixture, method, path, headers):
    """Call the cloud's WSGI application once; its status line."""
    url = urlsplit(fixture.url)
    environ = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": url.hostname,
        "SERVER_PORT": str(url.port),
        "HTTP_HOST": url.netloc,
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
    }
    for name, value in headers.items():
        environ["HTTP_" + name.upper().replace("-", "_")] = value
    status = []
    b"".join(fixture.cloud.wsgi(environ, lambda line, _headers: status.append(line)))
    return status[0]


def measure(requests=1000, profile=None):
    """``{request: {"app_ms", "app_cpu_ms", "http_ms"}}`` (see the module)."""
    results = {}
    with occli.testing.start_local_cloud() as fixture:
        cases = _cases(fixture)
        url = urlsplit(fixture.url)
        conn = http.client.HTTPConnection(url.hostname, url.port)
        for method, path, headers in cases:
            status = _call(fixture, method, path, headers)
            if not status.startswith("2"):
                raise RuntimeError("%s %s answered %s" % (method, path, status))
            walls, cpus, round_trips = [], [], []
            for _ in range(requests):
                wall, cpu = time.perf_counter(), time.process_time()
                _call(fixture, method, path, headers)
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
            for _ in range(requests):
                wall = time.perf_counter()
                conn.request(method, path, headers=headers)
                conn.getresponse().read()
                round_trips.append(time.perf_counter() - wall)
            results["%s %s" % (method, path)] = {
                "app_ms": statistics.median(walls) * 1000,
                "app_cpu_ms": statistics.mean(cpus) * 1000,
                "http_ms": statistics.median(round_trips) * 1000,
            }
        conn.close()
        if profile is not None:
            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(requests):
                _call(fixture, *cases[profile])
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--profile", type=int, choices=range(4), default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = measure(args.requests, args.profile)
    if args.json:
        print(json.dumps(results))
        return
    print("| request | app ms | app CPU ms | http ms |")
    print("|---|---|---|---|")
    for name, row in results.items():
        cells = (name, row["app_ms"], row["app_cpu_ms"], row["http_ms"])
        print("| `%s` | %.3f | %.3f | %.3f |" % cells)


if __name__ == "__main__":
    main()
