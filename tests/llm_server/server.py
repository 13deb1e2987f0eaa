"""A local OpenAI-compatible Chat Completions endpoint on 127.0.0.1: real HTTP, scripted answers.

    with ChatServer(script=lambda request: Reply.answer(make_answer(request.document))) as server:
        server.replies.append(Reply.error(429, retry_after="2"))   # the next request is rate limited
        config = {"base_url": server.url, "model": "local-model"}
        ...
        server.requests                                             # every request, parsed

`POST /v1/chat/completions` answers as OpenAI's API does today: a `chat.completion` object whose
message has `content`, `refusal` and `annotations`, a `finish_reason`, `usage`; errors as
`{"error": {"message", "type", "param", "code"}}` (or vLLM's flat `{"object": "error", ...}`), 401
for a wrong key, 400 for a strict `json_schema` that OpenAI would refuse or for JSON mode without the
word "json" in the messages; `json_schema=False` makes it refuse `json_schema` the way servers
without structured outputs do, `temperature=False` a temperature other than 1 the way reasoning
models do. Queued `replies` go first, then `script`.

`limits=FreeTier()` makes it answer as a capped free tier does (the figures GitHub Models' free tier had
until its retirement on 2026-07-30): a request over `max_input_tokens` gets 413 `tokens_limit_reached`,
and past `per_minute` or `per_day` requests a 429 `RateLimitReached` with `Retry-After` (seconds to
the minute's end, or hours to the day's). It counts tokens more densely than the writer does (three
ASCII characters a token), as a real tokenizer may; its `clock` may be the tests' fake one.
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from digest_plugin.narrate.llm.answer import SECTIONS
from tests.local_server import LocalHandler, LocalServer

GOOD_KEY = "sk-local-test-0123456789abcdefABCDEF"


@dataclass
class FreeTier:
    """A capped free tier (GitHub Models' for a low model, until its retirement): 8000 tokens in, 15 requests a minute, 150 a day."""

    max_input_tokens: int = 8000
    per_minute: int = 15
    per_day: int = 150
    day: float = 86400.0


def counted_tokens(body: dict) -> int:
    """What the stand-in counts a request as: its messages and its schema, three ASCII characters or one other a token."""
    text = "".join(str(m.get("content", "")) for m in body.get("messages", [])) + json.dumps(
        body.get("response_format") or {}
    )
    ascii_count = sum(1 for c in text if c < "\x80")
    return math.ceil(ascii_count / 3) + len(text) - ascii_count


@dataclass
class Request:
    body: dict
    headers: dict[str, str]  # names in lower case
    refused: str = (
        ""  # "413", "429 minute", "429 day": what the free tier answered instead of the model
    )
    tokens: int = 0  # as the stand-in counts them

    @property
    def messages(self) -> list[dict]:
        return self.body.get("messages", [])

    @property
    def system(self) -> str:
        return next(
            (m["content"] for m in self.messages if m.get("role") in ("system", "developer")), ""
        )

    @property
    def document(self) -> dict:
        """The user message, which the writer sends as a JSON document of data."""
        text = next(m["content"] for m in self.messages if m.get("role") == "user")
        return json.loads(
            text[text.index("{") :]
        )  # after what a client puts before it (the Copilot CLI: <current_datetime>)

    @property
    def sections(self) -> list[str]:
        """The answer's sections the request asks for: its schema's, or all of them in JSON mode."""
        schema = ((self.body.get("response_format") or {}).get("json_schema") or {}).get("schema")
        return (
            [key for key in schema["properties"] if key != "language"] if schema else list(SECTIONS)
        )

    @property
    def response_format(self) -> str | None:
        return (self.body.get("response_format") or {}).get("type")


@dataclass
class Reply:
    kind: str  # answer | refusal | error | stall | drop
    content: str | None = None
    finish_reason: str = "stop"
    status: int = 200
    error_body: dict = field(default_factory=dict)  # {"message", "type", "param", "code"}
    headers: dict[str, str] = field(default_factory=dict)
    flat: bool = False  # vLLM's error shape

    @classmethod
    def answer(cls, answer: dict | str, finish_reason: str = "stop") -> Reply:
        return cls(
            "answer",
            answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False),
            finish_reason,
        )

    @classmethod
    def refusal(cls, text: str = "I'm sorry, I can't help with that request.") -> Reply:
        return cls("refusal", text)

    @classmethod
    def error(
        cls,
        status: int,
        message: str | None = None,
        type: str | None = None,
        code: str | None = None,
        retry_after: str | None = None,
        flat: bool = False,
    ) -> Reply:
        defaults = {
            400: ("Invalid request.", "invalid_request_error", None),
            401: ("Incorrect API key provided.", "invalid_request_error", "invalid_api_key"),
            404: (
                "The model does not exist or you do not have access to it.",
                "invalid_request_error",
                "model_not_found",
            ),
            429: (
                (
                    "Rate limit reached for local-model in organization org-local on requests per min (RPM): Limit 3, Used 3, "
                    "Requested 1. Please try again in 2s."
                ),
                "requests",
                "rate_limit_exceeded",
            ),
            500: (
                "The server had an error while processing your request. Sorry about that!",
                "server_error",
                None,
            ),
            503: (
                "The engine is currently overloaded, please try again later.",
                "server_error",
                None,
            ),
        }
        default = defaults.get(status, ("Error.", "server_error", None))
        headers = {"retry-after": retry_after} if retry_after is not None else {}
        body = {
            "message": message or default[0],
            "type": type or default[1],
            "param": None,
            "code": code if code is not None else default[2],
        }
        return cls("error", status=status, error_body=body, headers=headers, flat=flat)

    @classmethod
    def stall(cls) -> Reply:
        """No answer until the server stops: the client's timeout is what ends the request."""
        return cls("stall")

    @classmethod
    def drop(cls) -> Reply:
        return cls("drop")


class ChatServer(LocalServer):
    def __init__(
        self,
        script: Callable[[Request], Reply] | None = None,
        key: str = GOOD_KEY,
        json_schema: bool = True,
        temperature: bool = True,
        limits: FreeTier | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.limits, self.clock, self.answered_at = limits, clock, []
        self.script = script
        self.key = key
        self.json_schema = json_schema
        self.temperature = temperature
        self.replies: list[Reply] = []
        self.requests: list[Request] = []
        self.lock = threading.Lock()
        super().__init__(_Handler)

    @property
    def url(self) -> str:
        return f"{self.origin}/v1"

    def record(self, request: Request) -> None:
        with self.lock:
            self.requests.append(request)

    @property
    def sent(self) -> list[Request]:
        """The requests the model was given (not refused by the free tier's limits)."""
        return [r for r in self.requests if not r.refused]

    def next_reply(self, request: Request) -> Reply:
        self.record(request)
        refusal = self._over_limits(request) if self.limits else None
        if refusal:
            return refusal
        with self.lock:
            if self.replies:
                return self.replies.pop(0)
        if self.script is None:
            return Reply.error(500, "No scripted answer.")
        return self.script(request)

    def _over_limits(self, request: Request) -> Reply | None:
        """The free tier's answer when the request is over one of its limits; None when it may go to the model."""
        limits, now = self.limits, self.clock()
        with self.lock:
            today = [at for at in self.answered_at if at > now - limits.day]
            minute = [at for at in today if at > now - 60]
            if len(today) >= limits.per_day:
                request.refused, wait = "429 day", today[-limits.per_day] + limits.day - now
                return _rate_limited(limits.per_day, int(limits.day), "UserByModelByDay", wait)
            if len(minute) >= limits.per_minute:
                request.refused, wait = "429 minute", minute[-limits.per_minute] + 60 - now
                return _rate_limited(limits.per_minute, 60, "UserByModelByMinute", wait)
            self.answered_at.append(
                now
            )  # every request within the rates counts against them, a 413 too
        request.tokens = counted_tokens(request.body)
        if request.tokens > limits.max_input_tokens:
            request.refused = "413"
            message = f"Request body too large for {request.body.get('model')} model. Max size: {limits.max_input_tokens} tokens."
            return Reply(
                "error",
                status=413,
                error_body={"code": "tokens_limit_reached", "message": message, "details": message},
            )
        return None


def _rate_limited(limit: int, period: int, kind: str, wait: float) -> Reply:
    seconds = max(1, math.ceil(wait))
    message = f"Rate limit of {limit} per {period}s exceeded for {kind}. Please wait {seconds} seconds before retrying."
    return Reply(
        "error",
        status=429,
        error_body={"code": "RateLimitReached", "message": message, "details": message},
        headers={"retry-after": str(seconds)},
    )


class _Handler(LocalHandler):
    @property
    def chat(self) -> ChatServer:
        return self.server.owner

    def do_GET(self):
        if self.path.rstrip("/") == "/v1/models":
            return self._json(
                200,
                {
                    "object": "list",
                    "data": [
                        {"id": "local-model", "object": "model", "created": 0, "owned_by": "local"}
                    ],
                },
            )
        return self._error(
            404,
            {
                "message": f"Invalid URL (GET {self.path})",
                "type": "invalid_request_error",
                "param": None,
                "code": None,
            },
        )

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path.rstrip("/") not in ("/v1/chat/completions", "/inference/chat/completions"):
            return self._error(
                404,
                {
                    "message": f"Invalid URL (POST {self.path})",
                    "type": "invalid_request_error",
                    "param": None,
                    "code": None,
                },
            )
        if self.headers.get("Authorization") != f"Bearer {self.chat.key}":
            # A careless server that repeats the key it was sent: the writer must not pass it on.
            sent = (self.headers.get("Authorization") or "").removeprefix("Bearer ")
            return self._error(
                401,
                {
                    "message": f"Incorrect API key provided: {sent}.",
                    "type": "invalid_request_error",
                    "param": None,
                    "code": "invalid_api_key",
                },
            )
        try:
            body = json.loads(raw)
        except ValueError:
            return self._error(
                400,
                {
                    "message": "We could not parse the JSON body of your request.",
                    "type": "invalid_request_error",
                    "param": None,
                    "code": None,
                },
            )
        request = Request(body, {name.lower(): value for name, value in self.headers.items()})
        refused = self._refused(body)
        if refused:
            self.chat.record(request)
            message, param = refused
            return self._error(
                400,
                {"message": message, "type": "invalid_request_error", "param": param, "code": None},
            )
        reply = self.chat.next_reply(request)
        if reply.kind == "stall":
            self.chat.stall(30)
            return self.drop_connection()
        if reply.kind == "drop":
            return self.drop_connection()
        if reply.kind == "error":
            return self._error(reply.status, reply.error_body, reply.headers, reply.flat)
        refusal = reply.content if reply.kind == "refusal" else None
        content = None if reply.kind == "refusal" else reply.content
        if body.get("stream"):
            return self._stream(body, content, refusal, reply.finish_reason)
        return self._json(
            200,
            {
                "id": f"chatcmpl-local{len(self.chat.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model"),
                "choices": [
                    {
                        "index": 0,
                        "message": {
                            "role": "assistant",
                            "content": content,
                            "refusal": refusal,
                            "annotations": [],
                        },
                        "logprobs": None,
                        "finish_reason": reply.finish_reason,
                    }
                ],
                "usage": {
                    "prompt_tokens": len(raw) // 4,
                    "completion_tokens": len(content or refusal or "") // 4,
                    "total_tokens": (len(raw) + len(content or refusal or "")) // 4,
                },
                "service_tier": "default",
                "system_fingerprint": "fp_local",
            },
        )

    def _stream(
        self, body: dict, content: str | None, refusal: str | None, finish_reason: str
    ) -> None:
        """The answer as OpenAI streams it (`stream: true`, as the Copilot CLI asks): server-sent events of
        `chat.completion.chunk` deltas, a last chunk with the finish reason, usage when asked for, `[DONE]`."""
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        base = {
            "id": f"chatcmpl-local{len(self.chat.requests)}",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model"),
            "system_fingerprint": "fp_local",
        }
        text = refusal if refusal is not None else (content or "")
        field_name = "refusal" if refusal is not None else "content"
        pieces = [text[i : i + 200] for i in range(0, len(text), 200)] or [""]
        chunks = [
            {"index": 0, "delta": {"role": "assistant", field_name: ""}, "finish_reason": None}
        ]
        chunks += [
            {"index": 0, "delta": {field_name: piece}, "finish_reason": None} for piece in pieces
        ]
        chunks.append({"index": 0, "delta": {}, "finish_reason": finish_reason})
        for choice in chunks:
            self._event({**base, "choices": [choice]})
        if (body.get("stream_options") or {}).get("include_usage"):
            tokens = len(json.dumps(body)) // 4
            self._event(
                {
                    **base,
                    "choices": [],
                    "usage": {
                        "prompt_tokens": tokens,
                        "completion_tokens": len(text) // 4,
                        "total_tokens": tokens + len(text) // 4,
                    },
                }
            )
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def _event(self, data: dict) -> None:
        self.wfile.write(b"data: " + json.dumps(data, ensure_ascii=False).encode() + b"\n\n")

    def _refused(self, body: dict) -> tuple[str, str | None] | None:
        """What OpenAI's API would answer 400 to: its message, and the parameter it is about."""
        if not body.get("model") or not isinstance(body.get("messages"), list):
            return "'model' and 'messages' are required properties.", None
        if not self.chat.temperature and body.get("temperature", 1) != 1:
            return (
                f"Unsupported value: 'temperature' does not support {body['temperature']} with this model. "
                "Only the default (1) value is supported."
            ), "temperature"
        response_format = body.get("response_format") or {}
        kind = response_format.get("type")
        problem = None
        if kind == "json_schema":
            spec = response_format.get("json_schema") or {}
            if not self.chat.json_schema:
                problem = "response_format type 'json_schema' is not supported by this server; use 'json_object'."
            elif not spec.get("name"):
                problem = "Missing required parameter: 'response_format.json_schema.name'."
            elif spec.get("strict"):
                problem = _strict_problem(spec.get("schema") or {}, spec["name"])
        if kind == "json_object" and not any(
            "json" in str(m.get("content", "")).lower() for m in body["messages"]
        ):
            problem = "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'."
        return (problem, "response_format") if problem else None

    def _json(self, status: int, data: dict, headers: dict | None = None) -> None:
        payload = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("x-request-id", f"req_local{len(self.chat.requests)}")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(payload)

    def _error(
        self, status: int, error: dict, headers: dict | None = None, flat: bool = False
    ) -> None:
        body = {"object": "error", **error, "code": status} if flat else {"error": error}
        self._json(status, body, headers)


def _strict_problem(schema: dict, name: str, context: str = "()") -> str | None:
    """Structured Outputs' strict-mode rules: every object lists all its keys as required, allows no others."""
    if schema.get("type") == "object":
        properties = schema.get("properties") or {}
        if schema.get("additionalProperties") is not False:
            return f"Invalid schema for response_format '{name}': In context={context}, 'additionalProperties' is required to be supplied and to be false."
        missing = sorted(set(properties) - set(schema.get("required") or []))
        if missing:
            return (
                f"Invalid schema for response_format '{name}': In context={context}, 'required' is required to be supplied and to be "
                f"an array including every key in properties. Missing '{missing[0]}'."
            )
        for key, value in properties.items():
            problem = _strict_problem(value, name, f"('properties', '{key}')")
            if problem:
                return problem
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        return _strict_problem(schema["items"], name, f"{context}, 'items'")
    return None
