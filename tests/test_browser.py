"""The course in a real browser: JupyterLab in headless Chromium runs lesson 02 and its exercises.

Playwright drives the system's Chromium (Debian's ``chromium`` package; no browser download). The test
is skipped, with the reason, where Chromium or Playwright is missing; ``.ci/run`` installs Chromium when
it can. Screenshots go to ``tests/browser-screenshots/`` for a developer to look at.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "tests" / "browser-screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

# About 60 s (JupyterLab and Chromium start, lesson 02 runs): with the slow tests, which CI runs.
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None, reason="no system Chromium (Debian: apt-get install chromium)")]
playwright_api = pytest.importorskip("playwright.sync_api", reason="Playwright's Python package is not installed")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    port, token = _free_port(), "browser-test-token"
    workdir = tmp_path_factory.mktemp("lab")
    # A copy, so that running the notebooks in the browser never rewrites the stored lessons.
    for folder in ("notebooks", "exercises"):
        (workdir / folder).mkdir()
        for name in ("02_laplace_mechanism.ipynb",):
            for found in (ROOT / folder).glob(name.replace(".ipynb", "*.ipynb")):
                shutil.copy(found, workdir / folder / found.name)
    command = [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={workdir}", "--allow-root",
               "--LabApp.news_url=", "--ServerApp.disable_check_xsrf=False"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=workdir)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status?token={token}", timeout=3):
                break
        except OSError:
            if server.poll() is not None:
                pytest.fail("JupyterLab exited at start-up")
            time.sleep(0.5)
    yield f"http://127.0.0.1:{port}", token, workdir
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()


def _open_and_run_all(page, base: str, token: str, path: str) -> None:
    page.goto(f"{base}/lab/tree/{path}?token={token}&reset", wait_until="domcontentloaded")
    page.wait_for_selector(".jp-Notebook", timeout=60_000)
    page.wait_for_function("() => document.body.innerText.includes('Idle')", timeout=60_000)
    page.locator(".jp-Notebook").first.click()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    # Wait until no cell shows "[*]" and the kernel is idle again.
    page.wait_for_function(
        """() => {
            const prompts = [...document.querySelectorAll('.jp-InputArea-prompt')].map(p => p.textContent);
            return prompts.length > 0 && prompts.every(t => !t.includes('*')) &&
                   prompts.filter(t => /\\[\\d+\\]/.test(t)).length > 0;
        }""",
        timeout=120_000,
    )


def _errors(page) -> list[str]:
    return page.eval_on_selector_all(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], .jp-RenderedText[data-mime-type='application/vnd.jupyter.error']",
        "nodes => nodes.map(n => n.textContent).filter(t => /Traceback|Error/.test(t))",
    )


def test_lesson_02_and_its_exercises_run_in_chromium(lab):
    base, token, workdir = lab
    SHOTS.mkdir(exist_ok=True)
    lesson = "notebooks/02_laplace_mechanism.ipynb"
    (exercise,) = [p.relative_to(workdir).as_posix() for p in (workdir / "exercises").glob("02_*.ipynb")]
    with playwright_api.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            _open_and_run_all(page, base, token, lesson)
            page.screenshot(path=str(SHOTS / "lesson02-after-run-all.png"))
            assert not _errors(page), _errors(page)
            images = page.locator(".jp-OutputArea-output img")
            assert images.count() >= 3, "the lesson's figures render as images"

            slider = page.locator(".widget-slider, .jupyter-widget-slider, .widget-hslider").first
            slider.wait_for(timeout=30_000)
            slider.scroll_into_view_if_needed()
            cell = slider.locator("xpath=ancestor::div[contains(concat(' ', normalize-space(@class), ' '), "
                                  "' jp-CodeCell ')]").first
            handle = slider.locator(".noUi-handle, .ui-slider-handle, [role='slider']").first

            def move_and_read(key: str) -> str | None:
                handle.focus()
                for _ in range(4):
                    handle.press(key)
                page.wait_for_function("cell => [...cell.querySelectorAll('img')].length > 0",
                                       arg=cell.element_handle(), timeout=30_000)
                page.wait_for_timeout(2_000)
                return cell.locator("img").last.get_attribute("src")

            first = move_and_read("ArrowRight")
            page.screenshot(path=str(SHOTS / "lesson02-slider-moved.png"))
            second = move_and_read("ArrowLeft")
            assert first and second and first != second, "moving the slider redraws the figure"

            _open_and_run_all(page, base, token, exercise)
            page.screenshot(path=str(SHOTS / "exercises02-after-run-all.png"), full_page=True)
            assert not _errors(page), _errors(page)
            text = page.locator(".jp-Notebook").inner_text()
            assert text.count("not done yet") >= 4, "each unfinished exercise's check says so"
        finally:
            browser.close()
