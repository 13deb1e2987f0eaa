"""The writer's requests through the Copilot CLI (DIGEST_WRITER = "copilot"), driven by the official
Python SDK (`github-copilot-sdk`) over JSON-RPC.

Why the SDK rather than `copilot -p`: the CLI is an agent. In prompt mode it keeps its own
instructions and offers the model its tools (a shell among them), while the PR text the model reads
is written by strangers, in a job that holds a token. A session made through the SDK takes our
system message in place of the agent's and is offered no tool at all (`available_tools=[]`); its
permission handler refuses anything asked all the same. Each request runs the CLI in an empty
temporary folder, its home and working directory both (no memory, no instructions or MCP settings
to find), with its built-in MCP servers and its telemetry off, in an environment of PATH, that
folder and the credential only, and memory off.

Success is judged from the answer: a session error is a ModelFault, and one that no later request
would escape (410, a refused credential, a rate limit or server error the CLI has already retried,
no answer within the timeout) stops the build's requests through `RequestBudget.stop`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING

from digest_plugin.llm import quieted
from digest_plugin.llm.endpoint import RequestBudget, _short
from digest_plugin.narrate.llm.answer import ModelFault
from digest_plugin.narrate.llm.prompt import answer_schema
from digest_plugin.settings import LLMConfig

if TYPE_CHECKING:  # the SDK, an optional extra, is imported where a request is sent
    from copilot import ProviderConfig

CLI = "copilot"  # on PATH, as `npm install @github/copilot` puts it (or COPILOT_CLI_PATH)
CLI_ARGS = ("--disable-builtin-mcps", "--disable-client-telemetry")
# What the CLI prints when its own retries of the model call are spent (and `copilot -p` still exits 0).
NO_RESPONSE = "Failed to get response from the AI model"


def cli_path(environ) -> str | None:
    """The Copilot CLI this machine has: COPILOT_CLI_PATH, else `copilot` on PATH; None when there is none."""
    named = environ.get("COPILOT_CLI_PATH", "").strip()
    if named:
        return named if os.access(named, os.X_OK) else None
    return shutil.which(CLI, path=environ.get("PATH", os.defpath))


@dataclass
class CopilotEndpoint:
    """An `Endpoint` (narrate/llm/language_model.py) whose requests go through the Copilot CLI at `cli`.

    Without `config.base_url` they go to Copilot with `credential`, a GitHub token; with one, the CLI
    runs offline against that OpenAI-compatible endpoint and `credential` is its key."""

    config: LLMConfig
    credential: str
    budget: RequestBudget
    cli: str

    def complete(self, messages: list[dict], schema: dict | None = None) -> str:
        self.budget.spend()
        system = next(m["content"] for m in messages if m["role"] == "system")
        user = next(m["content"] for m in messages if m["role"] == "user")
        # No response_format through the CLI: the schema is in the rules, and the answer is read as JSON all the same.
        rules = (
            f"{system}\n\nAnswer with one JSON object and nothing else, valid against this JSON schema:\n"
            f"{json.dumps(schema or answer_schema(), ensure_ascii=False)}"
        )
        # The SDK logs each failed request with its traceback; the writer says what went wrong in one sentence.
        with (
            tempfile.TemporaryDirectory(prefix="repo-digest-copilot-") as empty,
            quieted(logging.CRITICAL, "copilot"),
        ):
            try:
                reply, error = asyncio.run(
                    asyncio.wait_for(self._ask(rules, user, empty), self.config.timeout + 30)
                )
            except TimeoutError:
                raise self.budget.stop(
                    f"the Copilot CLI gave no answer within {self.config.timeout:g} seconds, "
                    "so it is not asked again in this build"
                ) from None
            except Exception as failure:  # noqa: BLE001 the CLI would not start, or its connection broke: every later request would fail alike
                raise self.budget.stop(
                    f"the Copilot CLI failed ({self._said(str(failure))})"
                ) from None
        if error is not None:
            raise self._fault(error)
        if not reply or not reply.strip():
            raise ModelFault("the answer is empty")
        if NO_RESPONSE in reply:
            raise self.budget.stop(
                f"the Copilot CLI got no answer from the model ({self._said(reply)})"
            )
        return reply

    async def _ask(self, rules: str, user: str, folder: str) -> tuple[str | None, object]:
        """The answer's text and the session's error (None when there was none)."""
        from copilot import CopilotClient
        from copilot.client import RuntimeConnection
        from copilot.generated.session_events import SessionErrorData

        errors = []
        client = CopilotClient(
            connection=RuntimeConnection.for_stdio(path=self.cli, args=CLI_ARGS),
            working_directory=folder,
            env=self._environment(folder),
            use_logged_in_user=False,
            log_level="error",
        )
        await client.start()
        try:
            session = await client.create_session(
                on_permission_request=_refuse,
                model=self.config.model,
                provider=self._provider(),
                system_message={"mode": "replace", "content": rules},
                available_tools=[],
                working_directory=folder,
                enable_config_discovery=False,
                skip_custom_instructions=True,
                enable_skills=False,
                enable_session_telemetry=False,
                mcp_servers={},
                memory={"enabled": False},
                streaming=False,
            )
            session.on(
                lambda event: (
                    errors.append(event.data) if isinstance(event.data, SessionErrorData) else None
                )
            )
            try:
                event = await session.send_and_wait(user, timeout=self.config.timeout)
            except TimeoutError:
                raise
            except Exception as failure:  # noqa: BLE001 the SDK raises the session's error as a bare Exception: its event says more
                if errors:
                    return None, errors[-1]
                raise ModelFault(f"the Copilot CLI failed ({self._said(str(failure))})") from None
            content = getattr(getattr(event, "data", None), "content", None)
            return content, (errors[-1] if errors and not content else None)
        finally:
            try:
                await asyncio.wait_for(client.stop(), 10)
            except Exception:  # noqa: BLE001 a CLI that will not stop politely is stopped
                await client.force_stop()

    def _environment(self, folder: str) -> dict[str, str]:
        """All the CLI is given: PATH, the empty folder as its home, the credential, and the endpoint when there is one."""
        environment = {
            "PATH": os.environ.get("PATH", os.defpath),
            "HOME": folder,
            "XDG_CONFIG_HOME": folder,
            "XDG_STATE_HOME": folder,
            "XDG_CACHE_HOME": folder,
        }
        if self.config.base_url:
            environment |= {
                "COPILOT_OFFLINE": "true",
                "COPILOT_PROVIDER_BASE_URL": self.config.base_url,
                "COPILOT_MODEL": self.config.model,
                "COPILOT_PROVIDER_API_KEY": self.credential,
            }
        else:
            environment["COPILOT_GITHUB_TOKEN"] = self.credential
        return environment

    def _provider(self) -> ProviderConfig | None:
        if not self.config.base_url:
            return None
        return {"type": "openai", "base_url": self.config.base_url, "api_key": self.credential}

    def _fault(self, error) -> ModelFault:
        status = getattr(error, "status_code", None)
        # the CLI puts the status first
        said = self._said(getattr(error, "message", "") or str(error)).removeprefix(f"{status} ")
        where = "the endpoint" if self.config.base_url else "Copilot"
        if status == 410:
            return self.budget.stop(f"{where} answered 410, gone ({said})")
        if status in (401, 403):
            return self.budget.stop(
                f"{where} refused the {'key' if self.config.base_url else 'token'} ({said})"
            )
        if status == 404:
            return self.budget.stop(
                f"{where} does not know the model {self.config.model!r} ({said})"
            )
        if status == 429 or (status or 0) >= 500 or NO_RESPONSE in said:
            return self.budget.stop(
                f"{where} answered {status or 'nothing usable'} after the Copilot CLI's own retries ({said}), "
                "so it is not asked again in this build"
            )
        return ModelFault(f"{where} gave no answer ({said})")

    def _said(self, text: str) -> str:
        return _short(text, self.credential)


def _refuse(*_):
    """Every permission the session asks for (a tool, a file, a URL) is refused: it is offered none anyway."""
    from copilot.generated.rpc import PermissionDecisionReject

    return PermissionDecisionReject(feedback="No tool may be used.")
