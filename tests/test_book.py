"""The rendered book: a strict Sphinx build, an offline internal-link check, and a real browser.

The book is built once per session from the committed executed notebooks, into a temporary
folder (``jupyter-book build -W -n --keep-going``: any warning fails). The browser test opens
every chapter page in headless Chromium (Debian's package, driven by Playwright; no browser is
downloaded), checks that its figures render and that no error output is shown, and saves a
screenshot under ``_build/screenshots/``. Each chapter page carries launch buttons (Binder, Colab)
that open its executed notebook, ``book/<chapter>.ipynb``, from the repository named in
``_config.yml`` (the launch itself needs the network: not tested here).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
import yaml

from compsem import parameters, paths

pytestmark = pytest.mark.slow
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def html_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("book")
    jb = Path(sys.executable).with_name("jupyter-book")
    result = subprocess.run(
        [str(jb), "build", str(paths.PROJECT_DIR), "--path-output", str(out), "-W", "-n", "--keep-going"],
        capture_output=True, text=True, timeout=900,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return out / "_build" / "html"


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        for name in ("href", "src"):
            if attrs.get(name):
                self.links.append(attrs[name])


def _parse(file: Path) -> _Links:
    parser = _Links()
    parser.feed(file.read_text(encoding="utf-8", errors="replace"))
    return parser


def launch_urls(chapter: str) -> dict[str, str]:
    """The launch links a chapter page must carry: its notebook in the repository, on the branch
    and through the services that ``_config.yml`` names (sphinx-book-theme's URL forms)."""
    config = yaml.safe_load((paths.PROJECT_DIR / "_config.yml").read_text())
    repository, launch = config["repository"], config["launch_buttons"]
    for service in ("binderhub_url", "colab_url"):
        assert launch.get(service, "").startswith("https://"), f"_config.yml: no {service}"
    owner, name = urlparse(repository["url"]).path.strip("/").split("/")
    branch, notebook = repository["branch"], f"book/{chapter}.ipynb"
    assert (paths.PROJECT_DIR / notebook).is_file()
    ui = {"classic": "tree", "jupyterlab": "lab/tree"}[launch["notebook_interface"]]
    return {
        "Binder": f"{launch['binderhub_url']}/v2/gh/{owner}/{name}/{branch}?urlpath={ui}/{notebook}",
        "Colab": f"{launch['colab_url']}/github/{owner}/{name}/blob/{branch}/{notebook}",
    }


def test_chapter_pages_have_launch_buttons(html_dir):
    missing = []
    for chapter in parameters.chapters():
        links = set(_parse(html_dir / "book" / f"{chapter}.html").links)
        missing += [f"{chapter}: {service} {url}" for service, url in launch_urls(chapter).items()
                    if url not in links]
    assert not missing, missing


def test_every_chapter_is_rendered(html_dir):
    for chapter in parameters.chapters():
        assert (html_dir / "book" / f"{chapter}.html").exists()
    assert (html_dir / "index.html").exists()


def test_internal_links_resolve(html_dir):
    # _static/ holds theme templates (Jinja source, not pages)
    pages = {p: _parse(p) for p in html_dir.rglob("*.html") if "_static" not in p.parts}
    broken = []
    for page, parsed in pages.items():
        for link in parsed.links:
            url = urlparse(link)
            if url.scheme or link.startswith(("//", "mailto:", "data:", "javascript:")):
                continue
            target = page if not url.path else (page.parent / unquote(url.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{page.relative_to(html_dir)} -> {link}")
            elif url.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else _parse(target).ids
                if url.fragment not in ids:
                    broken.append(f"{page.relative_to(html_dir)} -> {link} (no such anchor)")
    assert not broken, "\n".join(broken[:20])


@pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                    reason="needs Chromium (apt-get install chromium)")
def test_chapter_pages_in_a_real_browser(html_dir):
    assert CHROMIUM, "CI must install Debian's chromium (see .ci/run)"
    from playwright.sync_api import sync_playwright

    shots = paths.PROJECT_DIR / "_build" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    problems = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  "--disable-quic"],
        )
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.route("http*://**", lambda route: route.abort())  # offline: no CDN fetches
        for chapter in parameters.chapters():
            page.goto((html_dir / "book" / f"{chapter}.html").as_uri(), wait_until="load")
            if page.locator("main h1").count() == 0:
                problems.append(f"{chapter}: no title")
            images = page.locator("main .cell_output img")
            loaded = images.evaluate_all("els => els.filter(e => e.complete && e.naturalWidth > 0).length")
            if images.count() == 0 or loaded != images.count():
                problems.append(f"{chapter}: {images.count()} figures, {loaded} rendered")
            captions = page.locator("main figure figcaption").count()
            if captions < images.count():
                problems.append(f"{chapter}: {images.count()} figures, {captions} captions")
            if page.locator("main table.compsem-findings").count() != 1:
                problems.append(f"{chapter}: no Findings table")
            errors = page.locator("main .output.error, main .output.traceback, main .output.stderr")
            if errors.count():
                problems.append(f"{chapter}: {errors.count()} error outputs")
            hrefs = page.locator("a[href]").evaluate_all("els => els.map(e => e.getAttribute('href'))")
            for service, url in launch_urls(chapter).items():
                if hrefs.count(url) != 1:
                    problems.append(f"{chapter}: {hrefs.count(url)} {service} launch buttons ({url})")
            text = page.locator("main").inner_text()
            if "Traceback (most recent call last)" in text:
                problems.append(f"{chapter}: a traceback is shown")
            page.screenshot(path=str(shots / f"{chapter}.png"), full_page=False)
        browser.close()
    assert not problems, problems
