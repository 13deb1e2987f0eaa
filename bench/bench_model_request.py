"""What the model receives through the Copilot CLI: its prompt mode (`copilot -p`) against the writer's route.

    .venv/bin/python bench/bench_model_request.py

Writes one busy week (tests/narrate_fixtures.py) both ways, the real Copilot CLI (the version .ci/node
pins) in its offline mode against `tests/llm_server/`, and prints what the stand-in received: the tools
the model was offered, the characters of the system message (and whether the writer's rules are all of
it), and whether the request streamed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from digest_plugin.llm import language_model_writer  # noqa: E402
from digest_plugin.llm.copilot import cli_path  # noqa: E402
from digest_plugin.narrate import narrate  # noqa: E402
from digest_plugin.narrate.llm.parts import plan  # noqa: E402
from digest_plugin.narrate.llm.prompt import week_document  # noqa: E402
from digest_plugin.narrate.wording import Language  # noqa: E402
from digest_plugin.settings import DigestSettings  # noqa: E402
from tests.llm_server import GOOD_KEY, ChatServer, Reply, answers  # noqa: E402
from tests.narrate_fixtures import busy_week, previous_week  # noqa: E402

PATH = os.pathsep.join(
    [str(ROOT / ".ci/node/node_modules/.bin"), os.environ.get("PATH", os.defpath)]
)


def prompt_mode(server: ChatServer, cli: str) -> None:
    """`copilot -p` with the writer's rules and the week in the prompt, as a workflow step would run it."""
    [part] = plan(week_document(busy_week(), [previous_week()], "en")).parts
    system, user = (m["content"] for m in part.messages())
    with tempfile.TemporaryDirectory() as home:
        env = {
            "PATH": PATH,
            "HOME": home,
            "COPILOT_OFFLINE": "true",
            "COPILOT_PROVIDER_BASE_URL": server.url,
            "COPILOT_MODEL": "local-model",
            "COPILOT_PROVIDER_API_KEY": GOOD_KEY,
        }
        subprocess.run(
            [cli, "-p", f"{system}\n\n{user}", "-s", "--model", "local-model", "--no-color"],
            cwd=home,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )


def writer_route(server: ChatServer) -> None:
    with tempfile.TemporaryDirectory() as data:
        settings = DigestSettings.from_pelican(
            {
                "DIGEST_WRITER": "copilot",
                "DIGEST_DATA_PATH": data,
                "DIGEST_LLM": {
                    "base_url": server.url,
                    "model": "local-model",
                    "api_key_env": "KEY",
                },
            },
            data,
        )
        narrate(
            busy_week(),
            [previous_week()],
            Language.of("en"),
            language_model_writer(settings, environ={"PATH": PATH, "KEY": GOOD_KEY}),
        )


def main() -> int:
    cli = cli_path({"PATH": PATH})
    if cli is None:
        print(
            "skipped: the Copilot CLI is not installed (npm ci --prefix .ci/node --ignore-scripts)"
        )
        return 0
    version = subprocess.run([cli, "--version"], capture_output=True, text=True).stdout.split("\n")[
        0
    ]
    print(f"what the model receives, {version}, one busy week")
    print(
        f"{'':28}{'requests':>9}{'tools':>7}{'system chars':>14}{'our rules only':>16}{'streamed':>10}"
    )
    for name, run in (
        ("copilot -p (prompt mode)", lambda s: prompt_mode(s, cli)),
        ("the writer (SDK session)", writer_route),
    ):
        with ChatServer(
            script=lambda request: Reply.answer(answers.grounded(request.document))
        ) as server:
            run(server)
        if not server.requests:
            print(f"{name:28}{0:>9}")
            continue
        first = server.requests[0]
        tools = first.body.get("tools") or []
        ours = first.system.startswith("You write")
        print(
            f"{name:28}{len(server.requests):>9}{len(tools):>7}{len(first.system):>14,}{'yes' if ours else 'no':>16}"
            f"{'yes' if first.body.get('stream') else 'no':>10}"
        )
        if tools:
            print(
                f"{'':28}tools offered: {', '.join(sorted(t.get('function', {}).get('name', '?') for t in tools))}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
