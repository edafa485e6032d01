"""Browser tests: Playwright for Python driving Debian's Chromium (``/usr/bin/chromium``,
headless) against the site served by pytest-django's live server on 127.0.0.1.

The Django set-up (PostgreSQL test database, Redis broker, data folders, Celery worker
fixtures) is the site tests' own: ``tests/platform/conftest.py`` is loaded from here and its
fixtures are re-exported. Screenshots go to ``tests/browser/screenshots/`` (git-ignored) or to
``NIMMT_SCREENSHOT_DIR``; the folder is printed at the end of the run.

``./dev test`` installs Chromium and Playwright and sets ``NIMMT_REQUIRE_BROWSER=1``, which turns
a missing browser into an error; elsewhere (a bare ``pytest``) these tests are skipped without them.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserType, Playwright

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

HAVE_PLAYWRIGHT = importlib.util.find_spec("playwright") is not None


def _is_browser_test(item: pytest.Item) -> bool:
    return HERE in Path(str(item.fspath)).parents


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
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


# Playwright's sync API keeps its event loop running in the main thread while Playwright runs,
# and asyncio.run() refuses to start under it. pytest-playwright starts it once a session; here
# it lives for the browser tests only (package scope), so that a test process that goes on to
# other tests after them (the suite runs in several, each given whole files) runs those
# without the loop. A process that comes back to this folder starts Playwright again.
@pytest.fixture(scope="package")
def playwright(_pw_api_request_contexts: Any) -> Iterator[Playwright]:
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    if _pw_api_request_contexts:
        _pw_api_request_contexts.instrument(pw)
    yield pw
    pw.stop()


@pytest.fixture(scope="package")
def browser_type(playwright: Playwright, browser_name: str) -> BrowserType:
    browser_type: BrowserType = getattr(playwright, browser_name)
    return browser_type


@pytest.fixture(scope="package")
def launch_browser(
    browser_type_launch_args: dict[str, Any], browser_type: BrowserType
) -> Callable[..., Browser]:
    def launch(**kwargs: Any) -> Browser:
        return browser_type.launch(**{**browser_type_launch_args, **kwargs})

    return launch


@pytest.fixture(scope="package")
def browser(launch_browser: Callable[..., Browser]) -> Iterator[Browser]:
    browser = launch_browser()
    yield browser
    browser.close()


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


@pytest.fixture(scope="package")
def browser_context_args(
    playwright: Playwright, device: str | None, base_url: str | None
) -> dict[str, Any]:
    """pytest-playwright's own (a session fixture that needs Playwright), but for videos,
    which these tests do not record, and with a desktop window."""
    args: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
    if device:
        args.update(playwright.devices[device])
    if base_url:
        args["base_url"] = base_url
    return args


@pytest.fixture(scope="session")
def screenshot_dir() -> Iterator[Path]:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)  # emptied once a run (pytest_configure)
    yield SCREENSHOTS


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SCREENSHOTS.is_dir() and any(SCREENSHOTS.iterdir()):
        count = len(list(SCREENSHOTS.glob("*.png")))
        terminalreporter.write_line(f"browser screenshots ({count}): {SCREENSHOTS}")


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # the run itself, not one of its test processes
        shutil.rmtree(SCREENSHOTS, ignore_errors=True)
    # pytest-base-url (a pytest-playwright dependency) still defines a session fixture as a
    # method; its deprecation warning is not ours.
    config.addinivalue_line(
        "filterwarnings", "ignore:Session-scoped fixtures defined as instance methods"
    )
