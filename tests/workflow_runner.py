"""Run a GitHub Actions job's `run:` steps locally, in order, with the env they would have on GitHub.

Only what the deploy workflow uses is understood: `${{ }}` expressions over steps, needs, vars,
secrets and github, made of ==, !=, && and || (in `if:` conditions and values alike); GITHUB_OUTPUT and
GITHUB_STEP_SUMMARY files. The actions a step `uses:` are stood in for by `actions`, a dict from
the action's name to a function (step's `with:`, workdir) -> its outputs, and so are the `run:`
steps named in `machine_steps` (installing system packages is the machine's business here), given
the step's env instead. An expression or action the runner does not know fails the test, so the
workflow cannot grow a step this test ignores.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import yaml

_CONTEXT = re.compile(
    r"\b(steps|needs|vars|secrets|github)\.([\w-]+)(?:\.([\w-]+))?(?:\.([\w-]+))?"
)
_EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def load_workflow(path: Path) -> dict:
    workflow = yaml.safe_load(path.read_text(encoding="utf-8"))
    workflow["on"] = workflow.pop(True, workflow.get("on"))  # YAML 1.1 reads the key `on` as True
    return workflow


@dataclass
class JobRun:
    steps: dict[str, dict] = field(
        default_factory=dict
    )  # step id -> {"outputs": {...}, "outcome": ...}
    ran: list[str] = field(default_factory=list)  # names of the steps that ran
    logs: list[str] = field(default_factory=list)
    summary: str = ""
    outputs: dict[str, str] = field(default_factory=dict)


class Runner:
    def __init__(
        self,
        workdir: Path,
        env: dict[str, str],
        vars: dict[str, str],
        secrets: dict[str, str],
        github: dict[str, str],
        actions: dict,
        machine_steps: dict | None = None,
    ):
        self.workdir, self.base_env = workdir, env
        self.contexts = {"vars": vars, "secrets": secrets, "github": github, "needs": {}}
        self.actions = actions
        self.machine_steps = machine_steps or {}

    def run_job(self, workflow: dict, job_name: str, needs: dict | None = None) -> JobRun:
        job = workflow["jobs"][job_name]
        run = JobRun()
        self.contexts["needs"] = needs or {}
        job_env = {k: self._substitute(str(v), run) for k, v in (job.get("env") or {}).items()}
        summary = self.workdir.parent / f"{job_name}-summary.md"
        summary.write_text("")
        for index, step in enumerate(job["steps"]):
            name = step.get("name") or step.get("uses") or f"step {index}"
            record = run.steps.setdefault(
                step.get("id", f"_{index}"), {"outputs": {}, "outcome": "skipped"}
            )
            if "if" in step and not self.condition(step["if"], run):
                continue
            run.ran.append(name)
            env = {
                **self.base_env,
                **job_env,
                **{k: self._substitute(str(v), run) for k, v in (step.get("env") or {}).items()},
            }
            if "uses" in step:
                action = step["uses"].split("@")[0]
                if action not in self.actions:
                    raise AssertionError(
                        f"the workflow uses {action}, which this test does not stand in for"
                    )
                inputs = {
                    k: self._substitute(str(v), run, strict=False)
                    for k, v in (step.get("with") or {}).items()
                }
                record["outputs"] = self.actions[action](inputs, self.workdir)
                record["outcome"] = "success"
                continue
            if name in self.machine_steps:
                self.machine_steps[name](env)
                record["outcome"] = "success"
                continue
            outputs = self.workdir.parent / f"output-{index}"
            outputs.write_text("")
            done = subprocess.run(
                ["bash", "-e", "-o", "pipefail", "-c", self._substitute(step["run"], run)],
                cwd=self.workdir,
                env={**env, "GITHUB_OUTPUT": str(outputs), "GITHUB_STEP_SUMMARY": str(summary)},
                capture_output=True,
                text=True,
                timeout=600,
            )
            run.logs.append(f"== {name} (exit {done.returncode})\n{done.stdout}{done.stderr}")
            record["outputs"] = dict(
                line.split("=", 1) for line in outputs.read_text().splitlines() if "=" in line
            )
            record["outcome"] = "success" if done.returncode == 0 else "failure"
            if done.returncode and not step.get("continue-on-error"):
                raise AssertionError(f"step '{name}' failed:\n" + "\n".join(run.logs))
        run.summary = summary.read_text()
        run.outputs = {
            k: self._substitute(str(v), run) for k, v in (job.get("outputs") or {}).items()
        }
        return run

    def condition(self, text: str, run: JobRun) -> bool:
        return bool(self._evaluate(_EXPRESSION.sub(r"\1", text), run))

    def _evaluate(self, expression: str, run: JobRun):
        """==, !=, &&, || over contexts and 'strings', with GitHub's value semantics (`a && b || c` is b or c)."""
        python = (
            _CONTEXT.sub(lambda m: repr(self._value(m, run)), expression)
            .replace("&&", " and ")
            .replace("||", " or ")
        )
        if re.search(r"[A-Za-z_]\w*\s*\(", python):
            raise AssertionError(f"the runner cannot evaluate {expression!r}")
        return eval(python, {"__builtins__": {}}, {})

    def _substitute(self, text: str, run: JobRun, strict: bool = True) -> str:
        """`${{ context.path }}` replaced; other expressions (hashFiles in a cache key) fail, or stay as
        written for an action's inputs (`strict=False`), which the stand-ins do not compute."""

        def value(match: re.Match) -> str:
            inner = match[1]
            whole = _CONTEXT.fullmatch(inner)
            if not whole and not strict:
                return match[0]
            if not whole:
                result = self._evaluate(inner, run)
                return "" if result is False else str(result)
            return str(self._value(whole, run))

        return _EXPRESSION.sub(value, text)

    def _value(self, match: re.Match, run: JobRun):
        kind, *path = [p for p in match.groups() if p]
        if kind == "steps":
            step = run.steps.get(path[0], {"outputs": {}, "outcome": "skipped"})
            return step["outputs"].get(path[2], "") if path[1] == "outputs" else step[path[1]]
        if kind == "needs":
            return self.contexts["needs"].get(path[0], {}).get(path[1], {}).get(path[2], "")
        return self.contexts[kind].get(path[0], "")


def git(folder: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args],
        cwd=folder,
        check=True,
        capture_output=True,
        text=True,
        env={
            **os.environ,
            "GIT_AUTHOR_NAME": "t",
            "GIT_AUTHOR_EMAIL": "t@example.org",
            "GIT_COMMITTER_NAME": "t",
            "GIT_COMMITTER_EMAIL": "t@example.org",
        },
    ).stdout
