"""One OpenAI-compatible Chat Completions endpoint, through the official `openai` client: the writer's network.

The client's own retries are off (`max_retries=0`): this module retries timeouts, dropped
connections, 429 and 5xx itself, waiting as `Retry-After` (or `retry-after-ms`) says when that fits
in the time left for the request, with an injectable clock and sleep, and paces the build to
`requests_per_minute`. Every attempt counts against the build's request budget. Whatever goes wrong
ends in a `ModelFault` whose reason is one short phrase without the key; a 413 is reported as the
writer's own sizing error. A refused key, an unknown model, an exhausted quota, a 410 (an endpoint gone for good), a
429 whose `Retry-After` outlasts the timeout (a spent daily limit) and an endpoint that does not
answer at all (a timeout or no connection, once its retries are spent) stop the build's requests
through `RequestBudget.stop`, the one way to end them early.
"""

from __future__ import annotations

import email.utils
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from digest_plugin.narrate.llm.answer import BudgetSpent, ModelFault
from digest_plugin.narrate.llm.prompt import answer_schema
from digest_plugin.settings import LLMConfig

RETRIES = 3
BACKOFF = (1.0, 2.0, 4.0)  # seconds between attempts when the server does not say
# Asked for where the server takes them; reasoning models refuse a temperature other than 1, and
# `max_tokens` (sent only when DIGEST_LLM sets `max_output_tokens`) is refused by some servers.
OPTIONAL = {"temperature": 0}
MINUTE = 60.0


@dataclass
class RequestBudget:
    """How many requests this build may still send (every attempt counts), and whether it may send
    any at all: `stop` ends them for the rest of the build, for an endpoint not worth asking again
    (one that timed out or could not be reached; one whose limit for the day is spent). Every
    later request is a BudgetSpent with the reason, which the writer reports once."""

    limit: int
    used: int = 0
    stopped: str = ""  # why no request is sent for the rest of the build; "" while they are

    def spend(self) -> None:
        if self.stopped:
            raise BudgetSpent(self.stopped)
        if self.used >= self.limit:
            raise BudgetSpent(f"the build's budget of {self.limit} requests is used up")
        self.used += 1

    def stop(self, reason: str) -> BudgetSpent:
        """No more requests in this build; the BudgetSpent to raise now."""
        self.stopped = reason
        return BudgetSpent(reason)


@dataclass
class Endpoint:
    config: LLMConfig
    api_key: str
    budget: RequestBudget
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    json_schema: bool = True  # cleared when the server turns `response_format: json_schema` down
    # less what the server turned down
    optional: dict = field(default_factory=lambda: dict(OPTIONAL))
    # when the requests of the last minute were sent, by `clock`
    sent: list[float] = field(default_factory=list)
    _client: object = field(default=None, repr=False)

    def __post_init__(self):
        if self.config.max_output_tokens:
            self.optional["max_tokens"] = self.config.max_output_tokens

    def client(self):
        if self._client is None:
            import openai

            self._client = openai.OpenAI(
                base_url=self.config.base_url,
                api_key=self.api_key,
                max_retries=0,
                timeout=self.config.timeout,
            )
        return self._client

    def complete(self, messages: list[dict], schema: dict | None = None) -> str:
        """The answer's text, in `schema` (the whole week's answer when None); a ModelFault when there is none to use."""
        import openai

        deadline = None
        attempt = 0
        while True:
            self.budget.spend()
            self._pace()
            # from the first request sent: pacing is not the endpoint's delay
            deadline = deadline or self.clock() + self.config.timeout
            remaining = deadline - self.clock()
            try:
                completion = self.client().chat.completions.create(
                    model=self.config.model,
                    messages=messages,
                    response_format=self._response_format(schema or answer_schema()),
                    timeout=max(remaining, 0.001),
                    **self.optional,
                )
                return _content(completion)
            except openai.BadRequestError as error:
                if self._turned_down(error):
                    continue  # asked again without what the server turned down
                raise ModelFault(
                    f"the endpoint turned the request down ({_said(error, self.api_key)})"
                ) from None
            except openai.APIError as error:
                try:
                    failure, headers, stop = self._retryable(error)
                except ModelFault as fault:
                    raise fault from None  # the server's error may repeat the key: not chained to it
            if attempt >= RETRIES:
                raise self._given_up(f"{failure}, {attempt + 1} times", stop == "silent")
            wait = retry_after(headers, time.time()) or BACKOFF[min(attempt, len(BACKOFF) - 1)]
            if self.clock() + wait >= deadline:
                # A rate limit that outlasts the timeout is a spent limit (a limit per day says hours):
                # every later request would be refused too.
                raise self._given_up(
                    f"{failure}; waiting {wait:g} seconds more would pass the {self.config.timeout:g}-second timeout",
                    stop in ("silent", "limited"),
                )
            self.sleep(wait)
            attempt += 1

    def _turned_down(self, error) -> bool:
        """Whether the 400 was about something the request may go without; if so, it goes without it."""
        refused = _refused_parameter(error, self.optional)
        if refused in self.optional:
            del self.optional[refused]
            return True
        if self.json_schema and refused == "response_format":
            self.json_schema = False  # llama.cpp, older vLLM and Ollama: JSON mode instead
            return True
        return False

    def _retryable(self, error) -> tuple[str, object, str]:
        """(what went wrong, the headers that may say how long to wait, "silent" for no answer at all or
        "limited" for a rate limit, else ""); raises the ModelFault of an error not worth retrying."""
        import openai

        said = _said(error, self.api_key) if isinstance(error, openai.APIStatusError) else ""
        if isinstance(error, openai.AuthenticationError | openai.PermissionDeniedError):
            raise self.budget.stop(f"the endpoint refused the key ({said})")
        if isinstance(error, openai.NotFoundError):
            raise self.budget.stop(
                f"the endpoint does not know the model {self.config.model!r} ({said})"
            )
        if isinstance(error, openai.RateLimitError):
            if _code(error) == "insufficient_quota":
                raise self.budget.stop(f"the account's quota is exhausted ({said})")
            return f"rate limited ({said})", error.response.headers, "limited"
        if isinstance(error, openai.APIStatusError):
            # the request was sized to fit max_input_tokens: our count was wrong
            if error.status_code == 413:
                raise ModelFault(
                    f"the request was over the endpoint's input limit although it was sized to fit max_input_tokens "
                    f"{self.config.max_input_tokens}, so its size was underestimated: a bug worth reporting ({said})"
                )
            # gone for good (GitHub Models since its retirement): no later request would fare better
            if error.status_code == 410:
                raise self.budget.stop(f"the endpoint answered 410, gone ({said})")
            if error.status_code < 500 and error.status_code not in (408, 409):
                raise ModelFault(f"the endpoint answered {error.status_code} ({said})")
            return f"the endpoint answered {error.status_code} ({said})", error.response.headers, ""
        if isinstance(error, openai.APITimeoutError):
            return f"no answer within {self.config.timeout:g} seconds", {}, "silent"
        if isinstance(error, openai.APIConnectionError):
            return "the endpoint could not be reached", {}, "silent"
        raise ModelFault(f"the client failed ({_short(str(error), self.api_key)})")

    def _pace(self) -> None:
        """Wait until a request more keeps within `requests_per_minute`, then note it as sent."""
        per_minute = self.config.requests_per_minute
        if per_minute:
            self.sent = [at for at in self.sent if at > self.clock() - MINUTE]
            if len(self.sent) >= per_minute:
                self.sleep(self.sent[-per_minute] + MINUTE - self.clock())
        self.sent.append(self.clock())

    def _given_up(self, reason: str, stop: bool) -> ModelFault:
        """The fault to raise for a request that failed for good. An endpoint that did not answer
        at all, or whose rate limit outlasts the timeout, is not asked again in this build: each
        further request would wait out the timeout again (40 minutes for a site of 40 weeks at the
        default 60 seconds), or be refused again."""
        if stop:
            return self.budget.stop(f"{reason}, so it is not asked again in this build")
        return ModelFault(reason)

    def _response_format(self, schema: dict) -> dict:
        if self.json_schema:
            return {
                "type": "json_schema",
                "json_schema": {"name": "week_digest", "strict": True, "schema": schema},
            }
        return {"type": "json_object"}


def _content(completion) -> str:
    if not completion.choices:
        raise ModelFault("the answer has no choices")
    choice = completion.choices[0]
    message = choice.message
    if getattr(message, "refusal", None):
        raise ModelFault(f"the model declined ({_short(message.refusal)})")
    if choice.finish_reason == "length":
        raise ModelFault("the answer was cut off at the token limit")
    if choice.finish_reason == "content_filter":
        raise ModelFault("the endpoint's content filter withheld the answer")
    if not message.content or not message.content.strip():
        raise ModelFault("the answer is empty")
    return message.content


def retry_after(headers, now: float) -> float | None:
    """Seconds the server asks to wait: `retry-after-ms`, or `Retry-After` in seconds or as an HTTP date."""
    milliseconds = headers.get("retry-after-ms")
    try:
        if milliseconds is not None:
            return max(float(milliseconds) / 1000, 0.0)
    except ValueError:
        pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(float(value), 0.0)
    except ValueError:
        parsed = email.utils.parsedate_tz(value)
        return max(email.utils.mktime_tz(parsed) - now, 0.0) if parsed else None


def _refused_parameter(error, optional) -> str | None:
    """Which request parameter a 400 is about, from OpenAI's `param` or the message's words."""
    param = _error_fields(error).get("param")
    said = f"{param if isinstance(param, str) else ''} {_message(error)}".lower()
    for name in optional:
        if name in said:
            return name
    if any(
        word in said
        for word in ("response_format", "json_schema", "response format", "json schema", "grammar")
    ):
        return "response_format"
    return None


def _error_fields(error) -> dict:
    """OpenAI's {"error": {"message", "type", "param", "code"}}, or vLLM's flat {"message", ...}."""
    body = error.body if isinstance(error.body, dict) else {}
    return body["error"] if isinstance(body.get("error"), dict) else body


def _code(error) -> str | None:
    code = _error_fields(error).get("code")
    return code if isinstance(code, str) else None


def _message(error) -> str:
    """The server's own words, or its whole body when it has no message."""
    message = _error_fields(error).get("message")
    if isinstance(message, str):
        return message
    body = error.body
    if isinstance(body, str | dict | list):
        return body if isinstance(body, str) else json.dumps(body)
    return str(error)


def _said(error, key: str) -> str:
    return _short(_message(error), key)


def _short(text: str, key: str = "") -> str:
    """Server text for a log line: one line, at most 160 characters, never the key."""
    text = " ".join(str(text).split())
    if key:
        text = text.replace(key, "[key]")
    return text[:157] + "..." if len(text) > 160 else text
