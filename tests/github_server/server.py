"""A local GitHub on 127.0.0.1: REST and GraphQL over real HTTP, with rate limits and faults.

    with GitHubServer({"octo-org/widgets": handmade_pulls()}) as server:
        server.faults.add("502", on="graphql", times=2)
        env = server.env()          # GITHUB_API_URL, GITHUB_GRAPHQL_URL, GITHUB_TOKEN
        ...
        server.count("graphql")     # requests GitHub would have seen

Both github.com-style paths (/repos/..., /graphql) and Enterprise-style ones (/api/v3/...,
/api/graphql) are served. Errors are shaped like GitHub's (message + documentation_url).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
import urllib.parse
from dataclasses import dataclass, field

from tests.github_server import graphql_api, search
from tests.local_server import LocalHandler, LocalServer

GOOD_TOKEN = "ghp_localTestToken0123456789abcdefABCDEF"
DOCS = "https://docs.github.com/rest"
SECONDARY_MESSAGE = (
    "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. "
    "If you reach out to GitHub Support for help, please include the request ID 0000:1111:2222."
)


LEFT_OUT = object()  # a repository field (repo_fields) that GitHub's listing leaves out


@dataclass
class Fault:
    """What to do to the matching requests: skip `skip` of them, then spoil `times` of them."""

    kind: str  # 502 | 500 | secondary | secondary-429 | primary | reset | timeout | truncated | cut | graphql-timeout | stall | html | redirect
    on: str = "any"  # graphql | rest | search | files | any
    skip: int = 0
    times: int = 1
    retry_after: int = 1  # secondary: the Retry-After header
    reset_in: int = 3600  # primary: seconds until the limit lifts
    delay: float = 2.0  # timeout: how long the answer takes
    fired: int = 0


@dataclass
class FaultSchedule:
    faults: list[Fault] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, on: str = "any", skip: int = 0, times: int = 1, **params) -> Fault:
        fault = Fault(kind, on, skip, times, **params)
        with self.lock:
            self.faults.append(fault)
        return fault

    def clear(self) -> None:
        with self.lock:
            self.faults.clear()

    def take(self, kind: str) -> Fault | None:
        with self.lock:
            for fault in self.faults:
                if fault.on not in ("any", kind) and not (
                    fault.on == "rest" and kind in ("files", "search")
                ):
                    continue
                if fault.skip > 0:
                    fault.skip -= 1
                    continue
                if fault.fired < fault.times:
                    fault.fired += 1
                    return fault
        return None


@dataclass
class Logged:
    method: str
    path: str
    kind: str
    status: int
    fault: str | None
    detail: str = ""  # a GraphQL request's variables, as JSON


class RateLimits:
    """GitHub's primary limits per resource, with x-ratelimit-* headers."""

    def __init__(self, limit: int = 5000):
        self.lock = threading.Lock()
        self.ahead = 0.0  # seconds this GitHub's clock runs ahead of the wall clock (see advance)
        self.state = {
            name: {"limit": limit, "used": 0, "reset": self.now() + 3600, "exhausted_until": 0}
            for name in ("core", "search", "graphql")
        }

    def now(self) -> int:
        return int(time.time() + self.ahead)

    def advance(self, seconds: float) -> None:
        """Let `seconds` pass for this GitHub at once: a client's wait for a reset, without sleeping."""
        with self.lock:
            self.ahead += seconds

    def exhaust(self, resource: str, reset_in: int) -> None:
        with self.lock:
            entry = self.state[resource]
            entry["exhausted_until"] = self.now() + reset_in
            entry["reset"] = entry["exhausted_until"]

    def charge(self, resource: str) -> tuple[bool, dict]:
        """Count one request; (allowed, headers)."""
        with self.lock:
            entry = self.state[resource]
            now = self.now()
            if entry["exhausted_until"] and now >= entry["exhausted_until"]:
                entry.update(used=0, exhausted_until=0, reset=now + 3600)
            allowed = not entry["exhausted_until"] and entry["used"] < entry["limit"]
            if allowed:
                entry["used"] += 1
            remaining = 0 if entry["exhausted_until"] else max(0, entry["limit"] - entry["used"])
            return allowed, {
                "x-ratelimit-limit": str(entry["limit"]),
                "x-ratelimit-remaining": str(remaining),
                "x-ratelimit-reset": str(entry["reset"]),
                "x-ratelimit-used": str(entry["used"]),
                "x-ratelimit-resource": resource,
            }

    def view(self, resource: str) -> dict:
        with self.lock:
            entry = self.state[resource]
            remaining = 0 if entry["exhausted_until"] else max(0, entry["limit"] - entry["used"])
            return {
                "limit": entry["limit"],
                "remaining": remaining,
                "used": entry["used"],
                "reset": entry["reset"],
            }


class GitHubServer(LocalServer):
    def __init__(
        self,
        repos: dict[str, list[dict]] | None = None,
        tokens: tuple[str, ...] = (GOOD_TOKEN,),
        graphql_limit_status: int = 200,
        rate_limit: int = 5000,
        graphql_limit_type: str = "RATE_LIMIT",
        repo_fields: dict[str, dict] | None = None,
    ):
        self.repos = {
            name: sorted(pulls, key=lambda p: p["number"]) for name, pulls in (repos or {}).items()
        }
        # Repository fields other than the defaults ({"archived": True}, {"private": True}); a name
        # only here is a repository without pull requests.
        self.repo_fields = dict(repo_fields or {})
        for name in self.repo_fields:
            self.repos.setdefault(name, [])
        self.by_number = {
            name: {p["number"]: p for p in pulls} for name, pulls in self.repos.items()
        }
        self.tokens = set(tokens)
        self.faults = FaultSchedule()
        self.limits = RateLimits(rate_limit)
        self.graphql_limit_status = (
            graphql_limit_status  # GitHub answers a used-up GraphQL limit with 200 + errors
        )
        self.graphql_limit_type = (
            graphql_limit_type  # "RATE_LIMIT" as GitHub answers today; "RATE_LIMITED" before
        )
        # A PR's own trouble, every time it is asked: its GraphQL node spoiled ((repo, number) ->
        # graphql_api.NodeFault), its files refused by REST too (failing_files), or counted by
        # search but never listed (hidden)
        self.node_faults: dict[tuple[str, int], graphql_api.NodeFault] = {}
        self.failing_files: set[tuple[str, int]] = set()
        self.hidden: set[tuple[str, int]] = set()
        # seconds this GitHub's Date header runs ahead of the wall clock (negative: behind), as a
        # machine whose own clock runs ahead of GitHub's sees it
        self.date_offset = 0.0
        # what every GraphQL answer goes through before it is sent (a node GitHub's schema would not give)
        self.graphql_rewrite = None
        self.log: list[Logged] = []
        self._log_lock = threading.Lock()
        self._requests_seen = threading.Condition()
        super().__init__(_Handler)

    @property
    def url(self) -> str:
        return self.origin

    @property
    def enterprise_url(self) -> str:
        return self.url + "/api/v3"

    def env(self, token: str = GOOD_TOKEN, enterprise: bool = False) -> dict[str, str]:
        api = self.enterprise_url if enterprise else self.url
        return {"GITHUB_API_URL": api, "GITHUB_TOKEN": token}

    # -- what it saw -----------------------------------------------------------------------

    def record(self, entry: Logged) -> None:
        with self._log_lock:
            self.log.append(entry)
        with self._requests_seen:
            self._requests_seen.notify_all()

    def count(self, kind: str | None = None) -> int:
        with self._log_lock:
            return sum(1 for e in self.log if kind is None or e.kind == kind)

    def wait_for(self, predicate, timeout: float = 30) -> bool:
        with self._requests_seen:
            return self._requests_seen.wait_for(predicate, timeout)

    def add_pulls(self, repo: str, pulls: list[dict]) -> None:
        merged = {**self.by_number.get(repo, {}), **{p["number"]: p for p in pulls}}
        self.by_number[repo] = merged
        self.repos[repo] = sorted(merged.values(), key=lambda p: p["number"])


class _Handler(LocalHandler):
    @property
    def github(self) -> GitHubServer:
        return self.server.owner

    def date_time_string(self, timestamp=None):
        return super().date_time_string(
            time.time() + self.github.date_offset if timestamp is None else timestamp
        )

    def do_GET(self):
        self._serve("GET")

    def do_POST(self):
        self._serve("POST")

    # -- dispatch --------------------------------------------------------------------------

    def _serve(self, method: str) -> None:
        parsed = urllib.parse.urlsplit(self.path)
        path = parsed.path
        for prefix in ("/api/v3",):
            if path.startswith(prefix + "/"):
                path = path[len(prefix) :]
        is_graphql = path in ("/graphql", "/api/graphql") and method == "POST"
        kind = (
            "graphql"
            if is_graphql
            else "search"
            if path.startswith("/search/")
            else "files"
            if path.endswith("/files")
            else "rest"
        )
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        self._kind, self._path, self._method = kind, path, method
        self._detail = ""
        self._limit_headers = {}
        if is_graphql:
            with contextlib.suppress(ValueError, AttributeError):
                self._detail = json.dumps(json.loads(body or b"{}").get("variables") or {})

        token = self._token()
        if token is not None and token not in self.github.tokens:
            return self._json(
                401, {"message": "Bad credentials", "documentation_url": DOCS, "status": "401"}
            )
        if token is None and is_graphql:
            return self._json(
                401,
                {
                    "message": "This endpoint requires you to be authenticated.",
                    "documentation_url": DOCS,
                },
            )

        fault = self.github.faults.take(kind)
        if fault is not None and self._inject(fault):
            return None

        resource = "graphql" if is_graphql else "search" if kind == "search" else "core"
        allowed, limit_headers = self.github.limits.charge(resource)
        self._limit_headers = limit_headers
        if not allowed:
            return self._primary_limit(is_graphql)

        if is_graphql:
            try:
                request = json.loads(body or b"{}")
            except ValueError:
                return self._json(
                    400, {"message": "Problems parsing JSON", "documentation_url": DOCS}
                )
            view = self.github.limits.view("graphql")
            rate = {
                "cost": 1,
                "limit": view["limit"],
                "nodeCount": 0,
                "remaining": view["remaining"],
                "used": view["used"],
                "resetAt": graphql_api.reset_time(view["reset"]),
            }
            answer = graphql_api.execute(
                request,
                self.github.repos,
                rate,
                self.github.node_faults,
                frozenset(self.github.hidden),
            )
            return self._json(
                200, self.github.graphql_rewrite(answer) if self.github.graphql_rewrite else answer
            )
        return self._rest(method, path, urllib.parse.parse_qs(parsed.query))

    def _token(self) -> str | None:
        header = self.headers.get("Authorization")
        if not header:
            return None
        scheme, _, value = header.partition(" ")
        return value.strip() if scheme.lower() in ("token", "bearer") else header

    # -- faults ----------------------------------------------------------------------------

    def _inject(self, fault: Fault) -> bool:
        """Apply a fault; False when the request should then be answered normally (a slow answer)."""
        kind = fault.kind
        if kind in ("502", "500", "503"):
            self._json(
                int(kind),
                {"message": "Server Error" if kind != "502" else "Bad Gateway"},
                fault=kind,
            )
        elif kind == "graphql-timeout":
            self._json(
                200,
                {
                    "data": None,
                    "errors": [
                        {
                            "message": "Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug. Please include `0000:1111` when reporting this issue."
                        }
                    ],
                },
                fault=kind,
            )
        elif kind in ("secondary", "secondary-429"):
            status = 429 if kind == "secondary-429" else 403
            self._json(
                status,
                {
                    "message": SECONDARY_MESSAGE,
                    "documentation_url": "https://docs.github.com/free-pro-team@latest/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits",
                },
                headers={"Retry-After": str(fault.retry_after)},
                fault=kind,
            )
        elif kind == "primary":
            resource = (
                "graphql"
                if self._kind == "graphql"
                else "search"
                if self._kind == "search"
                else "core"
            )
            self.github.limits.exhaust(resource, fault.reset_in)
            _, self._limit_headers = self.github.limits.charge(resource)
            self._primary_limit(self._kind == "graphql", fault=kind)
        elif kind == "reset":
            self._record(0, kind)
            self.drop_connection()
            self.connection.close()
        elif kind in ("timeout", "stall"):
            self._record(0, kind)
            self.github.stall(fault.delay)
            self.close_connection = True
        elif kind == "html":  # a sign-in page or a proxy's, with status 200
            self._raw(
                200,
                b"<!DOCTYPE html><html><head><title>Sign in</title></head><body>Sign in to continue</body></html>",
                "text/html; charset=utf-8",
                fault=kind,
            )
        elif kind == "redirect":  # moved for good, to another host
            moved = self.github.url.replace("127.0.0.1", "localhost") + self.path
            self._raw(301, b"", "text/plain", {"Location": moved}, fault=kind)
        elif kind in ("truncated", "cut"):
            self._spoil_next_answer = kind
            return False
        else:
            raise ValueError(f"unknown fault {kind}")
        return True

    def _primary_limit(self, is_graphql: bool, fault: str | None = None) -> None:
        if is_graphql and self.github.graphql_limit_status == 200:
            error = {
                "type": self.github.graphql_limit_type,
                "code": "graphql_rate_limit",
                "message": "API rate limit already exceeded for user ID 1.",
            }
            return self._json(200, {"errors": [error]}, fault=fault)
        body = {
            "message": "API rate limit exceeded for user ID 1. If you reach out to GitHub Support for help, please include the request ID 0000.",
            "documentation_url": "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
        }
        self._json(403, body, fault=fault)
        return None

    # -- REST ------------------------------------------------------------------------------

    def _rest(self, method: str, path: str, query: dict) -> None:
        parts = [urllib.parse.unquote(p) for p in path.strip("/").split("/")]
        if method == "GET" and parts == ["rate_limit"]:
            resources = {
                name: self.github.limits.view(name) for name in ("core", "search", "graphql")
            }
            return self._json(200, {"resources": resources, "rate": resources["core"]})
        if method == "GET" and parts == ["search", "issues"]:
            return self._search_issues(query)
        if method == "GET" and len(parts) == 3 and parts[0] == "users" and parts[2] == "repos":
            # an owner's repositories, sorted by full_name; only public ones unless the token owns them
            names = sorted(self.github.repos, key=str.lower)
            listed = [
                self._repo_json(n) for n in names if n.split("/")[0].lower() == parts[1].lower()
            ]
            return self._paged(
                [r for r in listed if not r["private"]], query, max_items=len(listed)
            )
        if method == "GET" and len(parts) >= 3 and parts[0] == "repos":
            repo = f"{parts[1]}/{parts[2]}"
            if repo in self.github.repos:
                rest = parts[3:]
                if not rest:
                    return self._json(200, self._repo_json(repo))
                if len(rest) >= 2 and rest[0] == "pulls" and rest[1].isdigit():
                    pull = self.github.by_number[repo].get(int(rest[1]))
                    if pull is not None and len(rest) == 2:
                        return self._json(200, self._pull_json(repo, pull))
                    if (
                        pull is not None
                        and rest[2:] == ["files"]
                        and (repo, pull["number"]) in self.github.failing_files
                    ):
                        return self._json(
                            422,
                            {
                                "message": "Server Error: Sorry, this diff is taking too long to generate.",
                                "errors": [
                                    {
                                        "resource": "PullRequest",
                                        "field": "diff",
                                        "code": "not_available",
                                    }
                                ],
                                "documentation_url": DOCS,
                                "status": "422",
                            },
                        )
                    if pull is not None and rest[2:] == ["files"]:
                        return self._paged(pull["files"], query, max_items=3000)
        self._json(404, {"message": "Not Found", "documentation_url": DOCS, "status": "404"})
        return None

    def _repo_json(self, repo: str) -> dict:
        owner, name = repo.split("/")
        fields = {
            "id": abs(hash(repo)) % 10**8,
            "name": name,
            "full_name": repo,
            "private": False,
            "owner": {"login": owner, "id": 1, "type": "Organization"},
            "html_url": f"https://github.com/{repo}",
            "url": f"{self._base()}/repos/{repo}",
            "fork": False,
            "archived": False,
            "disabled": False,
            "visibility": "public",
        }
        fields.update(self.github.repo_fields.get(repo, {}))
        fields["visibility"] = "private" if fields["private"] else fields["visibility"]
        return {k: v for k, v in fields.items() if v is not LEFT_OUT}

    def _pull_json(self, repo: str, pull: dict) -> dict:
        data = {
            k: v
            for k, v in pull.items()
            if k not in ("files", "reviews_count", "reviews", "review_threads")
        }
        data["url"] = f"{self._base()}/repos/{repo}/pulls/{pull['number']}"
        return data

    def _search_issues(self, query: dict) -> None:
        text = (query.get("q") or [""])[0]
        parsed = search.parse(text)
        if parsed.repo not in self.github.repos:
            return self._json(
                422,
                {
                    "message": "Validation Failed",
                    "errors": [
                        {
                            "message": "The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them.",
                            "resource": "Search",
                            "field": "q",
                            "code": "invalid",
                        }
                    ],
                    "documentation_url": "https://docs.github.com/v3/search/",
                    "status": "422",
                },
            )
        pulls = [p for p in self.github.repos[parsed.repo] if search.matches(parsed, p)]
        pulls.sort(key=lambda p: (p["created_at"], p["number"]), reverse=parsed.descending)
        per_page, page = self._page_args(query, default=30)
        if per_page * (page - 1) >= 1000 or (
            per_page * page > 1000 and per_page * (page - 1) >= 1000
        ):
            return self._json(
                422,
                {
                    "message": "Only the first 1000 search results are available",
                    "documentation_url": "https://docs.github.com/v3/search/",
                    "status": "422",
                },
            )
        items = [self._issue_json(parsed.repo, p) for p in pulls[:1000]]
        start = per_page * (page - 1)
        last_page = max(1, -(-min(len(pulls), 1000) // per_page))
        self._json(
            200,
            {
                "total_count": len(pulls),
                "incomplete_results": False,
                "items": items[start : start + per_page],
            },
            headers=self._link(query, page, last_page),
        )
        return None

    def _issue_json(self, repo: str, pull: dict) -> dict:
        api = f"{self._base()}/repos/{repo}"
        return {
            "url": f"{api}/issues/{pull['number']}",
            "html_url": pull["html_url"],
            "number": pull["number"],
            "title": pull["title"],
            "user": pull.get("user"),
            "labels": pull.get("labels") or [],
            "state": "closed",
            "comments": pull.get("comments", 0),
            "created_at": pull["created_at"],
            "updated_at": pull["updated_at"],
            "closed_at": pull["closed_at"],
            "body": pull.get("body"),
            "author_association": pull.get("author_association"),
            "repository_url": api,
            "pull_request": {
                "url": f"{api}/pulls/{pull['number']}",
                "html_url": pull["html_url"],
                "merged_at": pull["merged_at"],
            },
        }

    def _paged(self, items: list, query: dict, max_items: int) -> None:
        per_page, page = self._page_args(query, default=30)
        items = items[:max_items]
        last_page = max(1, -(-len(items) // per_page))
        start = per_page * (page - 1)
        self._json(200, items[start : start + per_page], headers=self._link(query, page, last_page))

    @staticmethod
    def _page_args(query: dict, default: int) -> tuple[int, int]:
        per_page = min(100, max(1, int((query.get("per_page") or [default])[0])))
        page = max(1, int((query.get("page") or ["1"])[0]))
        return per_page, page

    def _link(self, query: dict, page: int, last_page: int) -> dict:
        def url(number: int) -> str:
            params = {k: v[0] for k, v in query.items()}
            params["page"] = str(number)
            prefix = "/api/v3" if self.path.startswith("/api/v3/") else ""
            return f"{self.github.url}{prefix}{self._path}?{urllib.parse.urlencode(params)}"

        links = []
        if page < last_page:
            links += [f'<{url(page + 1)}>; rel="next"', f'<{url(last_page)}>; rel="last"']
        if page > 1:
            links += [f'<{url(page - 1)}>; rel="prev"', f'<{url(1)}>; rel="first"']
        return {"Link": ", ".join(links)} if links else {}

    def _base(self) -> str:
        return self.github.url + ("/api/v3" if self.path.startswith("/api/v3/") else "")

    # -- answering -------------------------------------------------------------------------

    def _json(
        self, status: int, data, headers: dict | None = None, fault: str | None = None
    ) -> None:
        body = json.dumps(data).encode()
        spoil = getattr(self, "_spoil_next_answer", None)
        self._spoil_next_answer = None  # the handler lives as long as a keep-alive connection
        length = len(body)
        if spoil == "truncated":
            body = body[: len(body) // 2]  # a proxy that cut the answer but fixed the length
            length = len(body)
        elif spoil == "cut":
            body = body[: len(body) // 2]  # the connection drops mid-answer
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(length))
        for name, value in {**getattr(self, "_limit_headers", {}), **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(body)
            self.wfile.flush()
        except OSError:
            pass
        if spoil == "cut":
            self.close_connection = True
        self._record(status, fault or spoil)

    def _raw(
        self,
        status: int,
        body: bytes,
        content_type: str,
        headers: dict | None = None,
        fault: str | None = None,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)
        self._record(status, fault)

    def _record(self, status: int, fault: str | None) -> None:
        self.github.record(
            Logged(self._method, self._path, self._kind, status, fault, self._detail)
        )
