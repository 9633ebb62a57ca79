"""Make one reveal.js slide deck per chapter from the chapter notebooks, for offline teaching.

Each deck is a plain HTML page that opens from the file system or any static
server with no network: reveal.js and MathJax come from the pinned copies in
``offline/`` (``tools/vendor_js.py``), figures are the PNGs stored in the
notebook. What goes on the slides is chosen by rule, refined by
``book/slides.yml``:

- a title slide (the chapter's title and its part in ``_toc.yml``);
- the learning objectives;
- for each ``##`` section: its heading, its first paragraph and its first
  figure (with the figure's caption); a note names the live panel the section
  shows, if any, for the instructor to open in JupyterLab;
- the Summary section in full, if the chapter has one;
- a closing slide pointing at the chapter's practice page.

A cell tagged ``slide`` also becomes a slide of its own (its Markdown, or its
figure for a code cell); a cell tagged ``no-slide`` never does. Prose roles are
resolved from the notebook itself: ``{glue:text}`` from the glued outputs,
``{cite}`` from ``book/references.bib``, ``{numref}`` and ``{doc}`` as words.

Usage (from the repository root)::

    python tools/build_slides.py                    # -> _build/slides/index.html and one deck per chapter
    python tools/build_slides.py --output /tmp/slides 1 7

The browser test (``tests/browser/test_slides.py``) builds the decks itself
and opens each one in headless Chromium with every request held to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import ast
import base64
import html
import json
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "book"
OFFLINE = ROOT / "offline"
SPEC = BOOK / "slides.yml"
DEFAULT_OUTPUT = ROOT / "_build" / "slides"
#: What a deck needs from offline/, copied beside the decks (folder in offline/ -> folder in _static/).
ASSETS = {"reveal": "reveal", "mathjax": "mathjax"}


# --- Markdown and MyST roles ----------------------------------------------------------
def _math_renderer(content, config):
    return f"\\({html.escape(content)}\\)"


def _math_block_renderer(content, config):
    return f"<div class=\"math\">\\[{html.escape(content)}\\]</div>"


MARKDOWN = (MarkdownIt("commonmark", {"html": False}).enable("table")
            .use(dollarmath_plugin, allow_labels=True, double_inline=True,
                 renderer=_math_renderer, label_renderer=None))
MARKDOWN.add_render_rule("math_block", lambda self, tokens, idx, options, env:
                         _math_block_renderer(tokens[idx].content, None))
MARKDOWN.add_render_rule("math_block_label", lambda self, tokens, idx, options, env:
                         _math_block_renderer(tokens[idx].content, None))


def bibliography() -> dict[str, str]:
    """Citation key -> "Author et al. (year)" from book/references.bib."""
    from pybtex.database import parse_file

    entries = {}
    for key, entry in parse_file(str(BOOK / "references.bib")).entries.items():
        people = entry.persons.get("author") or entry.persons.get("editor") or []
        if people:
            surname = " ".join(people[0].last_names) or str(people[0])
            who = surname + (" et al." if len(people) > 2 else f" and {' '.join(people[1].last_names)}"
                             if len(people) == 2 else "")
        else:
            who = entry.fields.get("organization") or entry.fields.get("publisher") or \
                entry.fields.get("title", key).split(":")[0]
        who = re.sub(r"[{}]", "", who)
        entries[key] = f"{who}, {entry.fields.get('year', 'n.d.')}"
    return entries


def glue_values(notebook: dict) -> dict[str, object]:
    """Glued name -> value, from the notebook's stored outputs."""
    values = {}
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            record = output.get("metadata", {}).get("scrapbook")
            if not record:
                continue
            text = "".join(output.get("data", {}).get(record.get("mime_prefix", "") + "text/plain", ""))
            text = re.sub(r"^np\.\w+\((.*)\)$", r"\1", text.strip())
            try:
                values[record["name"]] = ast.literal_eval(text)
            except (ValueError, SyntaxError):
                values[record["name"]] = text
    return values


@dataclass
class Resolver:
    """Turns MyST roles into plain words for a slide."""

    glue: dict
    citations: dict
    titles: dict                      # document path -> title
    missing: list = field(default_factory=list)

    def glue_text(self, body: str) -> str:
        name, _, spec = body.partition(":")
        if name not in self.glue:
            self.missing.append(f"glue {name}")
            return "…"
        value = self.glue[name]
        try:
            return format(value, spec) if spec else str(value)
        except (TypeError, ValueError):
            return str(value)

    def cite(self, body: str, textual: bool) -> str:
        parts = []
        for key in (k.strip() for k in body.split(",")):
            label = self.citations.get(key)
            if label is None:
                self.missing.append(f"citation {key}")
                label = key
            who, _, year = label.rpartition(", ")
            parts.append(f"{who} ({year})" if textual else label)
        return "; ".join(parts) if textual else f"({'; '.join(parts)})"

    def __call__(self, text: str) -> str:
        def role(match):
            name, body = match.group(1), match.group(2)
            explicit = re.match(r"^(.*?)\s*<([^>]+)>$", body, re.S)
            if name.startswith("glue"):
                return self.glue_text(body)
            if name in {"cite", "cite:p", "cite:ps"}:
                return self.cite(body, textual=False)
            if name in {"cite:t", "cite:ts"}:
                return self.cite(body, textual=True)
            if name == "numref":
                return explicit.group(1).replace("%s", "").replace("{number}", "").strip() if explicit \
                    else "the figure"
            if name == "doc":
                if explicit:
                    return explicit.group(1)
                return self.titles.get(body.strip().lstrip("./").removeprefix("../"), "another chapter")
            if name in {"ref", "eq", "term", "abbr", "sub", "sup", "math", "code"}:
                if name == "math":
                    return f"${body}$"
                if name == "code":
                    return f"`{body}`"
                return explicit.group(1) if explicit else body
            return body
        text = re.sub(r"\{([\w:.-]+)\}`([^`]*)`", role, text)
        # A reference that became "the figure" at the start of a sentence.
        return re.sub(r"(^|[.!?]\s+)(the figure|another chapter)", lambda m: m.group(1) + m.group(2).capitalize(),
                      text)


def render(markdown: str, resolve: Resolver) -> str:
    return MARKDOWN.render(resolve(markdown))


# --- Reading a chapter ----------------------------------------------------------------
@dataclass
class Slide:
    title: str
    body_html: str = ""
    figure: str | None = None          # file name in figures/
    figure_alt: str = ""
    caption_html: str = ""
    panel: str | None = None
    classes: str = ""


def _blocks(markdown: str) -> list[str]:
    """Top-level blocks of a Markdown cell, fenced directives kept whole."""
    blocks, current, fence = [], [], None
    for line in markdown.splitlines():
        stripped = line.strip()
        if fence is None and re.match(r"^(`{3,}|:{3,})", stripped):
            if current:
                blocks.append("\n".join(current))
                current = []
            fence = re.match(r"^(`{3,}|:{3,})", stripped).group(1)
            current.append(line)
            continue
        if fence is not None:
            current.append(line)
            if stripped == fence:
                blocks.append("\n".join(current))
                current, fence = [], None
            continue
        if not stripped:
            if current:
                blocks.append("\n".join(current))
                current = []
        else:
            current.append(line)
    if current:
        blocks.append("\n".join(current))
    return blocks


def _is_paragraph(block: str) -> bool:
    return not re.match(r"^\s*(#|`{3}|:{3}|\||<|!\[|\$\$|\(|-{3})", block) and not block.startswith("    ")


def _admonition(markdown: str, title_pattern: str) -> str | None:
    match = re.search(rf"^:::+\s*\{{admonition\}}\s*{title_pattern}[^\n]*\n(.*?)^:::+\s*$", markdown,
                      re.M | re.S | re.I)
    if not match:
        return None
    return "\n".join(line for line in match.group(1).splitlines() if not line.startswith(":class:")).strip()


def _figure_output(cell: dict):
    for output in cell.get("outputs", []):
        data = output.get("data", {})
        if "image/png" in data:
            return data["image/png"]
    return None


def chapter_slides(path: Path, figures: Path, spec: dict, resolve: Resolver, part: str) -> tuple[str, list[Slide]]:
    notebook = json.loads(path.read_text())
    skip = {s.lower() for s in spec.get("skip", [])}
    max_sections = spec.get("max_sections")
    cells = notebook["cells"]
    title, slides, figure_count = path.stem, [], 0

    def save_figure(png_b64: str) -> str:
        nonlocal figure_count
        figure_count += 1
        name = f"{path.stem}-{figure_count:02d}.png"
        (figures / name).write_bytes(base64.b64decode(png_b64))
        return name

    # Sections: (heading, [cells]) split at "## " headings.
    sections, current = [], None
    for cell in cells:
        tags = cell.get("metadata", {}).get("tags", [])
        if "no-slide" in tags or "remove-cell" in tags:
            continue
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            h1 = re.search(r"^# (.+)$", source, re.M)
            if h1 and title == path.stem:
                title = h1.group(1).strip()
            for piece in re.split(r"(?m)^(?=## )", source):
                heading = re.match(r"^## (.+)$", piece, re.M)
                if heading:
                    current = {"heading": heading.group(1).strip(), "cells": []}
                    sections.append(current)
                    piece = piece[heading.end():]
                if current is not None:
                    current["cells"].append({"cell_type": "markdown", "source": piece, "metadata": cell["metadata"]})
                elif "Learning objectives" in piece:
                    objectives = _admonition(piece, r"Learning objectives")
                    if objectives:
                        slides.append(Slide("Learning objectives", render(objectives, resolve)))
        elif current is not None:
            current["cells"].append(cell)

    slides.insert(0, Slide(title, f"<p class=\"part\">{html.escape(part)}</p>"
                                  "<p class=\"book\">Interconnect Lab</p>", classes="title-slide"))
    for section in sections[:max_sections] if max_sections else sections:
        heading = section["heading"]
        if heading.lower() in skip:
            continue
        markdown = "\n\n".join(c["source"] for c in section["cells"] if c["cell_type"] == "markdown")
        if heading.lower() in {"summary", "key takeaways", "summary / key takeaways"}:
            slides.append(Slide(heading, render(markdown, resolve), classes="summary"))
            continue
        blocks = _blocks(markdown)
        first = next((i for i, b in enumerate(blocks) if _is_paragraph(b)), None)
        paragraph = "" if first is None else blocks[first]
        # A paragraph that leads into a displayed formula keeps the formula.
        if first is not None and first + 1 < len(blocks) and blocks[first + 1].lstrip().startswith("$$") \
                and not paragraph.rstrip().endswith((".", "!", "?")):
            paragraph += "\n\n" + blocks[first + 1]
        slide = Slide(resolve(heading).replace("`", ""), render(paragraph, resolve))
        for cell in section["cells"]:
            if cell["cell_type"] != "code":
                continue
            panel = re.search(r"\b([A-Z]\w*Panel)\(", "".join(cell["source"]))
            if panel and slide.panel is None:
                slide.panel = panel.group(1)
            png = _figure_output(cell)
            if png and slide.figure is None and "nbval-ignore-output" not in cell["metadata"].get("tags", []):
                mystnb = cell["metadata"].get("mystnb", {})
                slide.figure = save_figure(png)
                slide.figure_alt = mystnb.get("image", {}).get("alt", heading)
                caption = mystnb.get("figure", {}).get("caption", "")
                slide.caption_html = MARKDOWN.renderInline(resolve(caption)) if caption else ""
        slides.append(slide)
        # Cells tagged "slide" in this section: a slide each.
        for cell in section["cells"]:
            if "slide" not in cell.get("metadata", {}).get("tags", []):
                continue
            if cell["cell_type"] == "markdown":
                slides.append(Slide(heading, render(cell["source"], resolve)))
            elif _figure_output(cell):
                alt = cell["metadata"].get("mystnb", {}).get("image", {}).get("alt", heading)
                slides.append(Slide(heading, figure=save_figure(_figure_output(cell)), figure_alt=alt))
    practice = sorted((BOOK / "practice").glob(f"ch{path.stem[:2]}_*.ipynb"))
    closing = ("<p>Checked exercises and a quiz: <code>book/practice/"
               f"{html.escape(practice[0].name)}</code></p>" if practice else "")
    slides.append(Slide("Practice", closing + "<p>Exercises with worked solutions: the end of the chapter.</p>"))
    return title, slides


# --- Writing a deck -------------------------------------------------------------------
STYLE = """
.reveal { font-size: 30px; }
.reveal h1 { font-size: 1.8em; text-transform: none; } .reveal h2 { font-size: 1.25em; text-transform: none; }
.reveal section { text-align: left; }
.reveal .title-slide { text-align: center; }
.reveal .part { color: #555; } .reveal .book { color: #0072b2; font-weight: 600; }
.reveal figure { margin: 0.3em 0 0 0; text-align: center; }
.reveal figure img { max-height: 52vh; max-width: 100%; margin: 0; }
.reveal figcaption { font-size: 0.55em; color: #444; text-align: left; }
.reveal .panel-note { font-size: 0.6em; color: #555; border-left: 4px solid #e69f00; padding-left: 0.5em; }
.reveal p, .reveal li { line-height: 1.3; }
.reveal .summary li { font-size: 0.8em; }
.reveal table { font-size: 0.6em; }
"""

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} — Interconnect Lab slides</title>
<link rel="stylesheet" href="_static/reveal/reveal.css">
<link rel="stylesheet" href="_static/reveal/theme/white.css">
<style>{style}</style>
<script>
window.MathJax = {{tex: {{inlineMath: [["\\\\(", "\\\\)"]], displayMath: [["\\\\[", "\\\\]"]]}},
                  options: {{enableMenu: false}}}};
</script>
<script defer src="_static/mathjax/tex-mml-chtml.js"></script>
</head>
<body>
<div class="reveal"><div class="slides">
{sections}
</div></div>
<script src="_static/reveal/reveal.js"></script>
<script>Reveal.initialize({{hash: true, slideNumber: "c/t", width: 1280, height: 800, margin: 0.05}});</script>
</body>
</html>
"""


def slide_html(slide: Slide) -> str:
    tag = "h1" if "title-slide" in slide.classes else "h2"
    parts = [f"<{tag}>{html.escape(slide.title)}</{tag}>", slide.body_html]
    if slide.figure:
        caption = f"<figcaption>{slide.caption_html}</figcaption>" if slide.caption_html else ""
        parts.append(f"<figure><img src=\"figures/{slide.figure}\" alt=\"{html.escape(slide.figure_alt)}\">"
                     f"{caption}</figure>")
    if slide.panel:
        parts.append(f"<p class=\"panel-note\">Live in the notebook: <code>{slide.panel}</code> "
                     "(move its sliders in JupyterLab).</p>")
    classes = f" class=\"{slide.classes}\"" if slide.classes else ""
    return f"<section{classes}>\n" + "\n".join(p for p in parts if p) + "\n</section>"


def parts_of_chapters() -> dict[str, str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    parts = {}
    for part in toc.get("parts", []):
        for chapter in part.get("chapters", []):
            parts[chapter["file"].removeprefix("book/")] = part.get("caption", "")
    return parts


def document_titles() -> dict[str, str]:
    titles = {}
    for path in BOOK.rglob("*.ipynb"):
        for cell in json.loads(path.read_text())["cells"]:
            match = re.search(r"^# (.+)$", "".join(cell["source"]), re.M) if cell["cell_type"] == "markdown" else None
            if match:
                titles[str(path.relative_to(BOOK).with_suffix(""))] = match.group(1).strip()
                break
    for path in BOOK.rglob("*.md"):
        match = re.search(r"^# (.+)$", path.read_text(), re.M)
        if match:
            titles[str(path.relative_to(BOOK).with_suffix(""))] = match.group(1).strip()
    return titles


def chapter_paths(numbers=None) -> list[Path]:
    """The numbered chapters in ``_toc.yml`` (a notebook still being written is not yet listed)."""
    listed = parts_of_chapters()
    paths = sorted(p for p in BOOK.glob("[0-9][0-9]_*.ipynb") if p.stem in listed)
    return [p for p in paths if not numbers or int(p.name[:2]) in numbers]


def copy_assets(output: Path) -> None:
    for source, target in ASSETS.items():
        folder = OFFLINE / source
        if not folder.is_dir():
            raise SystemExit(f"{folder} is missing: run tools/vendor_js.py (it vendors reveal.js and MathJax)")
        destination = output / "_static" / target
        shutil.rmtree(destination, ignore_errors=True)
        shutil.copytree(folder, destination)


def build(output: Path = DEFAULT_OUTPUT, numbers=None) -> list[Path]:
    """Write the decks (and an index) into ``output``; return the decks' paths."""
    spec = yaml.safe_load(SPEC.read_text()) if SPEC.exists() else {}
    defaults = spec.get("defaults", {})
    output.mkdir(parents=True, exist_ok=True)
    figures = output / "figures"
    shutil.rmtree(figures, ignore_errors=True)
    figures.mkdir()
    copy_assets(output)
    citations, titles, parts = bibliography(), document_titles(), parts_of_chapters()
    decks, problems = [], []
    for path in chapter_paths(numbers):
        notebook = json.loads(path.read_text())
        resolve = Resolver(glue_values(notebook), citations, titles)
        chapter_spec = {**defaults, **(spec.get("chapters", {}) or {}).get(path.stem, {})}
        title, slides = chapter_slides(path, figures, chapter_spec, resolve, parts.get(path.stem, ""))
        problems += [f"{path.name}: unresolved {m}" for m in resolve.missing]
        deck = output / f"{path.stem}.html"
        deck.write_text(PAGE.format(title=html.escape(title), style=STYLE,
                                    sections="\n".join(slide_html(s) for s in slides)))
        decks.append(deck)
        print(f"{deck.relative_to(output)}: {len(slides)} slides")
    items = "\n".join(f"<li><a href=\"{d.name}\">{html.escape(d.stem)}</a></li>" for d in decks)
    (output / "index.html").write_text(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Interconnect Lab slides</title>"
        f"</head><body><h1>Interconnect Lab: slides</h1><ul>{items}</ul></body></html>\n")
    if problems:
        raise SystemExit("\n".join(problems))
    return decks


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", type=int, help="chapter numbers (default: every chapter)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="folder for the decks")
    args = parser.parse_args(argv)
    decks = build(args.output, args.chapters)
    print(f"{len(decks)} decks in {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
