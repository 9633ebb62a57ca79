"""Refresh the JavaScript the rendered book needs, served from the book itself.

The book's pages need require.js and the Jupyter widgets HTML manager (for the
few widgets a page still shows live, such as the measuring appendix's log
picker; the chapters' panels are precomputed), Chart.js (to draw them) and
MathJax (to typeset maths). By
default Jupyter Book loads them from public CDNs, so a reader offline sees
blank panels and raw TeX. This project keeps pinned copies in ``offline/``
(committed, with their licences); ``_config.yml`` serves that folder as
static files (``html_static_path``) and points ``mathjax_path`` and
``nb_ipywidgets_js`` at it. Readers and CI need only Python; this script, which
needs ``npm``, is for maintainers changing a pinned version.

Usage (from the repository root)::

    python tools/vendor_js.py            # re-create offline/ from the pins below
    python tools/vendor_js.py --check    # verify offline/ matches the pins

The panels' renderer (``tools/sphinxext/static/static-panels.js``) draws with
Chart.js, chosen against uPlot and Vega-Lite (sizes minified, as vendored):

- Chart.js 4 (MIT, about 210 kB, about 70 kB gzipped; released monthly, widely
  used): each line keeps its own x values (``{x, y}`` points, so a matplotlib
  line maps onto a dataset as it is); linear and logarithmic scales with fixed
  limits and the tick positions and labels matplotlib chose; stepped and
  dashed lines and point markers; a plugin hook for the rest (bars and other
  patches, texts); a redraw with animation off takes a few milliseconds.
- uPlot (about 50 kB) is smaller and faster, but its data model is one shared
  x array per chart (series joined and padded with gaps), and bars, floating
  bars and texts would all be hand-drawn in hooks.
- Vega-Lite with Vega (about 800 kB) compiles a declarative spec in the page:
  four times the bytes and a slower first draw, for features we do not use.

Chart.js is served once per book (the same file on every page, cached by the
browser) and only on pages that have a precomputed panel.

After changing a pin, build the book and run the browser tests
(``pytest tests/browser``): they fail on any request that leaves 127.0.0.1.
Keep the HTML manager's major version in step with ipywidgets
(ipywidgets 8 ↔ @jupyter-widgets/html-manager 1.x).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OFFLINE = ROOT / "offline"

#: package -> (version, folder in offline/, files to keep (globs in the package), licence)
PINS = {
    "requirejs": ("2.3.8", "requirejs", ["require.js"], "MIT"),
    "@jupyter-widgets/html-manager": (
        "1.0.15", "jupyter-widgets",
        # The AMD bundle has the base, controls and output widgets built in;
        # the fonts are Font Awesome's, for widget icons (woff2/woff cover
        # every current browser).
        ["dist/embed-amd.js", "dist/*.woff2", "dist/*.woff", "dist/embed.js.LICENSE.txt"],
        "BSD-3-Clause",
    ),
    "chart.js": (
        # The UMD bundle, for the precomputed panels (tools/sphinxext/static_panels.py).
        "4.6.1", "chartjs", ["dist/chart.umd.min.js", "LICENSE.md"], "MIT",
    ),
    "reveal.js": (
        # The slide decks (tools/build_slides.py): the core, its stylesheet,
        # one theme (its fonts are inlined in the CSS) and the speaker-notes
        # plugin (the speaker view, key S).
        "6.0.2", "reveal", ["dist/reveal.js", "dist/reveal.css", "dist/theme/white.css", "dist/plugin/notes.js",
                            "LICENSE"], "MIT",
    ),
    "mathjax": (
        "3.2.2", "mathjax",
        # The combined TeX/MathML-to-HTML component, the TeX extensions it
        # loads on demand, its fonts, the menu and the accessibility
        # extensions a reader can switch on (English speech rules).
        # The book's pages load the parts without the menu (startup, core, TeX
        # input, CHTML output and its font; 0.4 MB less than the combined
        # file, whose menu is 0.43 MB): tools/sphinxext/lighter_pages.py.
        ["LICENSE", "es5/tex-mml-chtml.js", "es5/startup.js", "es5/core.js", "es5/input/tex.js",
         "es5/output/chtml.js", "es5/output/chtml/fonts/tex.js", "es5/input/tex/extensions/**/*.js",
         "es5/output/chtml/fonts/woff-v2/*.woff", "es5/ui/*.js", "es5/a11y/*.js",
         "es5/sre/mathmaps/base.json", "es5/sre/mathmaps/en.json"],
        "Apache-2.0",
    ),
}

# The widgets HTML manager's npm package ships no licence file; this is
# ipywidgets' (the same repository and copyright).
BSD_3_CLAUSE = """\
Copyright (c) 2015 Project Jupyter Contributors
All rights reserved.

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:

1. Redistributions of source code must retain the above copyright notice, this
   list of conditions and the following disclaimer.

2. Redistributions in binary form must reproduce the above copyright notice,
   this list of conditions and the following disclaimer in the documentation
   and/or other materials provided with the distribution.

3. Neither the name of the copyright holder nor the names of its
   contributors may be used to endorse or promote products derived from
   this software without specific prior written permission.

THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE
FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY,
OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
"""

MIT_REQUIREJS = """\
RequireJS {version}, Copyright jQuery Foundation and other contributors.
Released under the MIT license:
https://github.com/requirejs/requirejs/blob/master/LICENSE

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in
all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
THE SOFTWARE.
"""

# Written beside the HTML manager and loaded between require.js and it
# (``nb_ipywidgets_js`` in _config.yml). Not from npm: this project's glue.
SETUP_JS = """\
// Glue between the book's pages and the Jupyter widgets HTML manager
// (written by tools/vendor_js.py; loaded after require.js, before embed-amd.js).
(function () {
  "use strict";
  // 1. Each widgets module (the manager, base, controls) finds its fonts
  //    relative to its own AMD module's address: map them all to this folder
  //    rather than to the page's folder.
  var here = new URL(".", document.currentScript.src).href.replace(/\\/$/, "");
  window.require.config({paths: {"@jupyter-widgets": here, "@jupyter-widgets/html-manager/dist": here}});

  // 2. ipywidgets 8 typesets widget labels with MathJax 2's API
  //    (MathJax.Hub.Queue); the book runs MathJax 3, which has no Hub, so
  //    every label would throw. Give each MathJax object a Hub that asks
  //    MathJax 3 to typeset the element instead.
  var hub = {
    Queue: function (command) {
      var element = command && command[2], mathjax = window.MathJax;
      if (element && mathjax && mathjax.startup && mathjax.startup.promise && mathjax.typesetPromise) {
        mathjax.startup.promise = mathjax.startup.promise.then(function () {
          return mathjax.typesetPromise([element]);
        });
      }
    }
  };
  var current = window.MathJax;
  Object.defineProperty(window, "MathJax", {
    configurable: true,
    enumerable: true,
    get: function () { return current; },
    set: function (value) {
      current = value;
      if (value && value.version && !value.Hub) { value.Hub = hub; }
    }
  });
})();
"""

README = """\
# Offline JavaScript for the rendered book

Pinned copies of the JavaScript the book's pages load, so the book works
without internet access (and its tests can check that no request leaves the
machine). Generated by `tools/vendor_js.py` from npm; do not edit by hand.
`_config.yml` serves this folder as static files (`html_static_path`), so its
folders land in `_build/html/_static/`.

| folder | npm package | version | licence |
|---|---|---|---|
{rows}

`jupyter-widgets/` also holds Font Awesome's fonts (SIL OFL 1.1), bundled by
the HTML manager; `embed.js.LICENSE.txt` lists every library bundled in it.
`jupyter-widgets/setup.js` is this project's own glue (loaded between
require.js and the manager): it lets the manager find its fonts here and
bridges its MathJax 2 calls to MathJax 3.
`chartjs/` draws the precomputed panels (`tools/sphinxext/static_panels.py`
adds it, with the renderer, to the pages that have one); why Chart.js rather
than uPlot or Vega-Lite: the docstring of `tools/vendor_js.py`.
`MANIFEST.json` records each file's SHA-256.
"""


def npm_pack(package: str, version: str, workdir: Path) -> Path:
    """Download and unpack one npm package; return its ``package/`` folder."""
    output = subprocess.run(["npm", "pack", f"{package}@{version}", "--json", "--pack-destination", str(workdir)],
                            check=True, capture_output=True, text=True).stdout
    tarball = workdir / json.loads(output)[0]["filename"]
    target = workdir / tarball.stem
    with tarfile.open(tarball) as archive:
        archive.extractall(target, filter="data")
    return target / "package"


def manifest(folder: Path) -> dict:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and p.name != "MANIFEST.json"}


def vendor(destination: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        staging = tmp / "offline"
        staging.mkdir()
        rows = []
        for package, (version, folder, patterns, licence) in PINS.items():
            source = npm_pack(package, version, tmp)
            target = staging / folder
            for pattern in patterns:
                matches = sorted(p for p in source.glob(pattern) if p.is_file())
                if not matches:
                    raise SystemExit(f"{package}@{version}: nothing matches {pattern!r}")
                for path in matches:
                    relative = path.relative_to(source)
                    if relative.parts[0] in {"es5", "dist"}:  # flatten the packages' build folders
                        relative = Path(*relative.parts[1:])
                    (target / relative).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(path, target / relative)
            if package == "requirejs":
                (target / "LICENSE").write_text(MIT_REQUIREJS.format(version=version))
            elif package == "@jupyter-widgets/html-manager":
                (target / "LICENSE").write_text(BSD_3_CLAUSE)
            rows.append(f"| `{folder}/` | `{package}` | {version} | {licence} (`{folder}/LICENSE`) |")
        (staging / "jupyter-widgets" / "setup.js").write_text(SETUP_JS)
        (staging / "README.md").write_text(README.format(rows="\n".join(rows)))
        (staging / "MANIFEST.json").write_text(json.dumps(
            {"pins": {p: v[0] for p, v in PINS.items()}, "files": manifest(staging)}, indent=1) + "\n")
        shutil.rmtree(destination, ignore_errors=True)
        shutil.copytree(staging, destination)


def check(destination: Path) -> list[str]:
    """Differences between ``destination`` and its manifest and the pins."""
    path = destination / "MANIFEST.json"
    if not path.exists():
        return [f"{path} is missing: run tools/vendor_js.py"]
    recorded = json.loads(path.read_text())
    problems = [f"{package}: pinned {version}, vendored {recorded['pins'].get(package)}"
                for package, (version, *_) in PINS.items() if recorded["pins"].get(package) != version]
    actual = manifest(destination)
    problems += [f"{name}: changed or missing" for name, digest in recorded["files"].items()
                 if actual.get(name) != digest]
    problems += [f"{name}: not in the manifest" for name in actual if name not in recorded["files"]]
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="verify offline/ against the pins and manifest")
    args = parser.parse_args(argv)
    if args.check:
        problems = check(OFFLINE)
        print("\n".join(problems) or f"{OFFLINE.relative_to(ROOT)}/ matches its pins and manifest")
        return 1 if problems else 0
    vendor(OFFLINE)
    total = sum(p.stat().st_size for p in OFFLINE.rglob("*") if p.is_file())
    print(f"wrote {OFFLINE.relative_to(ROOT)}/ ({total / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
