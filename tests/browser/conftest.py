"""Browser tests: Playwright for Python driving Debian's Chromium (``/usr/bin/chromium``,
headless) against the site served by pytest-django's live server on 127.0.0.1.

The Django set-up (PostgreSQL test database, Redis broker, data folders, Celery worker
fixtures) is the site tests' own: ``tests/platform/conftest.py`` is loaded from here and its
fixtures are re-exported. Screenshots go to ``tests/browser/screenshots/`` (git-ignored) or to
``NIMMT_SCREENSHOT_DIR``; the folder is printed at the end of the run.

``./dev test`` installs Chromium and Playwright and sets ``NIMMT_REQUIRE_BROWSER=1``, which turns
a missing browser into an error; elsewhere (a bare ``pytest``) these tests are skipped without them.
"""

import importlib.util
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
SITE_TESTS = HERE.parent / "platform"
CHROMIUM = Path(os.environ.get("NIMMT_CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = Path(os.environ.get("NIMMT_SCREENSHOT_DIR", HERE / "screenshots"))

# Playwright's sync API runs an event loop in this thread; the ORM calls of the tests (and of
# the live server thread) are ordinary blocking calls, which Django refuses under a running
# loop unless told that it is safe here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
os.environ.setdefault("DJANGO_LIVE_TEST_SERVER_ADDRESS", "127.0.0.1")  # never on all interfaces

if str(SITE_TESTS) not in sys.path:
    sys.path.insert(0, str(SITE_TESTS))


def _site_conftest() -> Any:
    """The site tests' conftest module, loaded once (pytest may have loaded it already)."""
    path = str(SITE_TESTS / "conftest.py")
    for module in list(sys.modules.values()):
        if getattr(module, "__file__", None) == path:
            return module
    spec = importlib.util.spec_from_file_location("nimmt_site_conftest", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["nimmt_site_conftest"] = module
    spec.loader.exec_module(module)
    return module


_site = _site_conftest()
collect_ignore = ["screenshots"]

# The site tests' fixtures, for these tests too.
data_dir = _site.data_dir
sandbox_runtime = _site.sandbox_runtime
worker_env = _site.worker_env
celery_worker = _site.celery_worker
celery_beat = _site.celery_beat

try:
    import playwright  # noqa: F401

    HAVE_PLAYWRIGHT = True
except ImportError:
    HAVE_PLAYWRIGHT = False


def _is_browser_test(item: pytest.Item) -> bool:
    return HERE in Path(str(item.fspath)).parents


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Playwright's sync API keeps its event loop running in the main thread from the first
    # browser test to the end of the session, and asyncio.run() refuses to start under it:
    # the browser tests go last, after every test that runs an event loop of its own.
    items.sort(key=_is_browser_test)
    reason = None
    if not HAVE_PLAYWRIGHT:
        reason = "Playwright is not installed (pip install playwright pytest-playwright)"
    elif not CHROMIUM.exists():
        reason = f"no Chromium at {CHROMIUM} (apt-get install -y chromium)"
    if reason and os.environ.get("NIMMT_REQUIRE_BROWSER"):
        # ./dev test installs both; a CI run must not pass by skipping the browser.
        raise pytest.UsageError(f"browser tests required (NIMMT_REQUIRE_BROWSER): {reason}")
    if reason:
        for item in items:
            if _is_browser_test(item):
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """Debian's Chromium, headless; Playwright downloads no browser of its own."""
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "headless": True,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1280, "height": 900}}


@pytest.fixture(scope="session")
def screenshot_dir() -> Iterator[Path]:
    if SCREENSHOTS.exists():
        shutil.rmtree(SCREENSHOTS)
    SCREENSHOTS.mkdir(parents=True)
    yield SCREENSHOTS


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SCREENSHOTS.is_dir() and any(SCREENSHOTS.iterdir()):
        count = len(list(SCREENSHOTS.glob("*.png")))
        terminalreporter.write_line(f"browser screenshots ({count}): {SCREENSHOTS}")


def pytest_configure(config: pytest.Config) -> None:
    # pytest-base-url (a pytest-playwright dependency) still defines a session fixture as a
    # method; its deprecation warning is not ours.
    config.addinivalue_line(
        "filterwarnings", "ignore:Session-scoped fixtures defined as instance methods"
    )
