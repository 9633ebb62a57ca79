"""Make one reveal.js slide deck per chapter from the chapter notebooks, for offline teaching.

Each deck is a plain HTML page that opens from the file system or any static
server with no network: reveal.js and MathJax come from the pinned copies in
``offline/`` (``tools/vendor_js.py``), figures are the PNGs stored in the
notebook. What goes on the slides is chosen by rule, refined by
``book/slides.yml``:

- a title slide (the chapter's title and its part in ``_toc.yml``);
- the learning objectives;
- for each ``##`` section: its heading, its first paragraph (with the list,
  table or formula it introduces, so no slide ends on a colon) and its first
  figure (with the figure's caption); if the section shows a live panel, a
  line saying in words what the panel lets students change, to open it in
  JupyterLab;
- the Summary section in full, if the chapter has one;
- a closing slide pointing at the chapter's practice page and its exercises.

Every slide has speaker notes (reveal.js's speaker view: press S), taken from
the chapter so that their numbers are the library's: *Say* (the section's
next paragraphs, cut to their first sentences), *Point at* (the sentences of
the section that carry glued numbers, and the figure's caption), and *Ask*
(a question for the class: the chapter's own exercise or quiz question that
matches the section best, each used once; a claim from the chapter's "Claims,
checked" box on the title slide; ``ask:`` in ``book/slides.yml`` overrides).

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
LOGO = BOOK / "images" / "logo.svg"


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
            if name.split(":")[-1] in {"func", "class", "meth", "mod", "attr", "data", "obj"}:
                target = explicit.group(1) if explicit else body.lstrip("~").split(".")[-1]
                return f"`{target}`"
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
    panel: str | None = None           # what the section's live panel lets students change, in words
    classes: str = ""
    notes_html: str = ""


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


def _sentences(text: str) -> list[str]:
    """Sentences of a Markdown paragraph (a full stop inside a number or "e.g." does not end one)."""
    flat = " ".join(text.split())
    return [s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(*\"'`{$])", flat) if s]


def _is_list_table_or_formula(block: str) -> bool:
    return bool(re.match(r"^\s*([-*+] |\d+[.)] |\||\$\$)", block))


def _lead(blocks: list[str]) -> tuple[str, int | None]:
    """The section's lead for the slide: its first paragraph, with the list, table or formula
    it introduces when it ends on a colon (or without that sentence when nothing follows it)."""
    for i, block in enumerate(blocks):
        if not _is_paragraph(block):
            continue
        if block.rstrip().endswith(":"):
            if i + 1 < len(blocks) and _is_list_table_or_formula(blocks[i + 1]):
                return block + "\n\n" + blocks[i + 1], i + 1
            kept = _sentences(block)[:-1]
            if not kept:
                continue
            return " ".join(kept), i
        # A paragraph that leads into a displayed formula keeps the formula.
        if i + 1 < len(blocks) and blocks[i + 1].lstrip().startswith("$$") \
                and not block.rstrip().endswith((".", "!", "?")):
            return block + "\n\n" + blocks[i + 1], i + 1
        return block, i
    return "", None


GLUE_ROLE = re.compile(r"\{glue(?::text)?\}`")


def _plain(markdown: str, resolve: Resolver) -> str:
    """One line of Markdown as inline HTML, roles resolved."""
    return MARKDOWN.renderInline(resolve(" ".join(markdown.split())))


def _words(text: str) -> set[str]:
    stop = {"the", "a", "an", "of", "and", "or", "to", "in", "on", "for", "is", "are", "it", "its", "by", "with",
            "that", "this", "what", "how", "at", "as", "be", "from", "one", "each", "which", "than", "per", "s"}
    return {w for w in re.findall(r"[a-z][a-z0-9-]{2,}", text.lower()) if w not in stop}


class Questions:
    """The chapter's checked exercises and quiz, handed out to the sections they match best."""

    def __init__(self, chapter: int):
        sys.path.insert(0, str(ROOT))
        from interconnect_lab.exercises import EXERCISES, keys

        self.specs = [EXERCISES[key] for key in keys(f"ch{chapter}")]
        self.used: set[str] = set()

    def best(self, text: str, *, minimum: int = 2):
        words = _words(text)
        scored = sorted(((len(words & _words(spec.title + " " + spec.prompt)), i, spec)
                         for i, spec in enumerate(self.specs) if spec.key not in self.used), key=lambda s: (-s[0], s[1]))
        if not scored or scored[0][0] < minimum:
            return None
        spec = scored[0][2]
        self.used.add(spec.key)
        return spec

    def ask_html(self, spec) -> str:
        options = getattr(spec, "options", None)
        choices = (" " + "; ".join(f"({letter}) {html.escape(option)}" for letter, option in
                                   zip("abcdefghij", options))) if options else ""
        return (f"{MARKDOWN.renderInline(' '.join(spec.prompt.split()))}{choices} "
                f"<em>(the practice page checks it: <code>{spec.key}</code>)</em>")


def _notes(say: list[str] = (), point: list[str] = (), ask: str = "") -> str:
    parts = []
    if say:
        parts.append("<p><strong>Say:</strong> " + " ".join(say) + "</p>")
    if point:
        parts.append("<p><strong>Point at:</strong> " + " ".join(point) + "</p>")
    if ask:
        parts.append(f"<p><strong>Ask:</strong> {ask}</p>")
    return "\n".join(parts)


def _claims(markdown: str) -> list[tuple[str, str]]:
    """(claim, the chapter's verdict) pairs from a "Claims, checked" box."""
    box = _admonition(markdown, r"Claims, checked") or ""
    return [(claim.strip(), verdict.strip()) for claim, verdict in
            re.findall(r"\*\*(.+?)\*\*\s*\*([^*]+)\*", box, re.S)]


def _panel_controls(notebook: dict, cell: dict) -> list[str]:
    """The descriptions of the controls of the live panel a code cell displays (from the stored widget state)."""
    state = notebook.get("metadata", {}).get("widgets", {}).get(
        "application/vnd.jupyter.widget-state+json", {}).get("state", {})
    views = [o["data"]["application/vnd.jupyter.widget-view+json"]["model_id"] for o in cell.get("outputs", [])
             if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    found, seen = [], set()

    def walk(model_id):
        if model_id in seen or model_id not in state:
            return
        seen.add(model_id)
        model = state[model_id]
        values = model.get("state", {})
        name = model.get("model_name", "")
        if re.search(r"(Slider|Dropdown|ToggleButtons|Checkbox|RadioButtons|ToggleButton)Model$", name):
            description = re.sub(r"<[^>]+>", "", values.get("description", "")).strip().rstrip(":")
            if description and description not in found:
                found.append(description)
        for child in values.get("children", []):
            walk(child.removeprefix("IPY_MODEL_"))

    for view in views:
        walk(view)
    return found


def _panel_words(controls: list[str], sentence: str) -> str:
    """What a live panel lets students explore, in words (no class names)."""
    if controls:
        listed = ", ".join(controls[:-1]) + (" and " if len(controls) > 1 else "") + controls[-1]
        return (f"In the notebook, a live panel lets students change {html.escape(listed)}, "
                "and watch the readout and the figure follow.")
    return sentence


def chapter_slides(path: Path, figures: Path, spec: dict, resolve: Resolver, part: str) -> tuple[str, list[Slide]]:
    notebook = json.loads(path.read_text())
    skip = {s.lower() for s in spec.get("skip", [])}
    max_sections = spec.get("max_sections")
    cells = notebook["cells"]
    title, slides, figure_count = path.stem, [], 0
    questions = Questions(int(path.name[:2]))
    asks = {k.lower(): v for k, v in (spec.get("ask") or {}).items()}
    intro, claims = "", []

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
                intro = next((b for b in _blocks(source[h1.end():]) if _is_paragraph(b)), "")
            claims += _claims(source)
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
                        slides.append(Slide("Learning objectives", render(objectives, resolve), notes_html=_notes(
                            say=["By the end of the chapter students can do each of these; come back to the list "
                                 "on the summary slide and ask which still feel shaky."],
                            ask="Which of these have you met in your own work, and where did the network "
                                "decide the outcome?")))
        elif current is not None:
            current["cells"].append(cell)

    opening = _sentences(resolve(intro))
    if claims:
        claim, verdict = claims[0]
        title_ask = (f"True or false: {_plain(claim, resolve)} Take a show of hands now and again at the end "
                     f"(the chapter's verdict: <em>{_plain(verdict, resolve)}</em>).")
    else:
        title_ask = "What do you expect the network to cost this kind of workload, as a share of its time?"
    slides.insert(0, Slide(title, f"<p class=\"part\">{html.escape(part)}</p>"
                                  "<p class=\"book\"><img class=\"logo\" src=\"_static/logo.svg\" alt=\"\">"
                                  "Interconnect Lab</p>", classes="title-slide",
                           notes_html=_notes(say=[MARKDOWN.renderInline(s) for s in opening[:3]], ask=title_ask)))
    for section in sections[:max_sections] if max_sections else sections:
        heading = section["heading"]
        if heading.lower() in skip:
            continue
        markdown = "\n\n".join(c["source"] for c in section["cells"] if c["cell_type"] == "markdown")
        if heading.lower() in {"summary", "key takeaways", "summary / key takeaways"}:
            spec_question = questions.best(markdown, minimum=0)
            slides.append(Slide(heading, render(markdown, resolve), classes="summary", notes_html=_notes(
                say=["Read the list back against the learning objectives: each line is one of them, answered "
                     "with the chapter's numbers."],
                ask=asks.get(heading.lower()) or (questions.ask_html(spec_question) if spec_question else
                                                  "Which of these would you check first on your own cluster?"))))
            continue
        blocks = _blocks(markdown)
        paragraph, last = _lead(blocks)
        # Further paragraphs for the notes; one that continues a formula ("where ...") needs it, so not those.
        rest = [b for i, b in enumerate(blocks) if _is_paragraph(b) and (last is None or i > last)
                and not b.lstrip()[:1].islower()]
        if len(_sentences(paragraph)) < 2 and rest and not rest[0].rstrip().endswith(":"):
            paragraph, rest = paragraph + "\n\n" + rest[0], rest[1:]   # a lone sentence needs its neighbour
        slide = Slide(resolve(heading).replace("`", ""), render(paragraph, resolve))
        numbered = [s for b in blocks if _is_paragraph(b) for s in _sentences(b) if GLUE_ROLE.search(s)][:3]
        point = [_plain(s, resolve) for s in numbered]
        say = [_plain(" ".join([s for s in _sentences(b) if s not in numbered][:2]), resolve) for b in rest[:2]]
        say = [s for s in say if s]
        panel_sentence = next((s for b in blocks if _is_paragraph(b) for s in _sentences(b)
                               if re.search(r"\bpanel\b", s, re.I)), "")
        for cell in section["cells"]:
            if cell["cell_type"] != "code":
                continue
            panel = re.search(r"\b([A-Z]\w*Panel)\(", "".join(cell["source"]))
            if panel and slide.panel is None:
                slide.panel = _panel_words(_panel_controls(notebook, cell), _plain(panel_sentence, resolve))
            png = _figure_output(cell)
            if png and slide.figure is None and "nbval-ignore-output" not in cell["metadata"].get("tags", []):
                mystnb = cell["metadata"].get("mystnb", {})
                slide.figure = save_figure(png)
                slide.figure_alt = mystnb.get("image", {}).get("alt", heading)
                caption = mystnb.get("figure", {}).get("caption", "")
                slide.caption_html = MARKDOWN.renderInline(resolve(caption)) if caption else ""
        if slide.caption_html:
            point.append(f"The figure: {slide.caption_html}")
        matched = questions.best(heading + " " + markdown)
        ask = asks.get(heading.lower()) or (questions.ask_html(matched) if matched else
                                            "Before showing the next slide: what would you change first to move "
                                            "this result, and by how much?")
        if not say:
            say = ([f"Let the class read the figure before you explain it: {html.escape(slide.figure_alt)}"]
                   if slide.figure else ["Read the slide's claim aloud, then ask what it would take to change it."])
        slide.notes_html = _notes(say=say, point=point, ask=ask)
        slides.append(slide)
        # Cells tagged "slide" in this section: a slide each.
        for cell in section["cells"]:
            if "slide" not in cell.get("metadata", {}).get("tags", []):
                continue
            extra_notes = _notes(say=["More of the same section: " + html.escape(heading) + "."],
                                 ask="What does this add to the previous slide?")
            if cell["cell_type"] == "markdown":
                slides.append(Slide(heading, render(cell["source"], resolve), notes_html=extra_notes))
            elif _figure_output(cell):
                alt = cell["metadata"].get("mystnb", {}).get("image", {}).get("alt", heading)
                slides.append(Slide(heading, figure=save_figure(_figure_output(cell)), figure_alt=alt,
                                    notes_html=extra_notes))
    practice = sorted((BOOK / "practice").glob(f"ch{path.stem[:2]}_*.ipynb"))
    exercises = [s for s in questions.specs if ".ex" in s.key]
    listed = "".join(f"<li>{html.escape(s.title)}</li>" for s in exercises)
    closing = (f"<p>Checked exercises on the chapter's practice page (<code>book/practice/"
               f"{html.escape(practice[0].name)}</code>), each checked in the notebook:</p><ul>{listed}</ul>"
               "<p>and a five-question quiz.</p>" if practice else "")
    slides.append(Slide("Practice", closing + "<p>Exercises with worked solutions: the end of the chapter.</p>",
                        notes_html=_notes(
                            say=[f"Assign the {len(exercises)} checked exercises; the check says right, close, wrong "
                                 "or a unit slip, without giving the answer. The quiz takes five minutes at the "
                                 "start of the next session."],
                            ask=(f"Back to the opening question: {_plain(claims[0][0], resolve)} Has anyone changed "
                                 "their mind?") if claims else "Which slide would you like to see again?")))
    return title, slides


# --- Writing a deck -------------------------------------------------------------------
#: The book's look (sphinx-book-theme over pydata-sphinx-theme): its system font stack, its text,
#: link and surface colours; the figures' palette (Okabe & Ito) for accents. No web font: offline.
BOOK_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif'
MONO_FONT = 'ui-monospace, "Cascadia Code", "Source Code Pro", Menlo, Consolas, "DejaVu Sans Mono", monospace'
THEME = {"text": "#222832", "muted": "#5f6368", "primary": "#176de8", "surface": "#f3f4f5", "border": "#d1d5da",
         "accent": "#E69F00", "background": "#ffffff"}

STYLE = """
:root { --r-main-font: %(font)s; --r-heading-font: %(font)s; --r-code-font: %(mono)s;
        --r-main-color: %(text)s; --r-heading-color: %(text)s; --r-link-color: %(primary)s;
        --r-link-color-hover: #0a4fb3; --r-selection-background-color: %(primary)s;
        --r-background-color: %(background)s; --r-heading-text-transform: none; --r-heading-font-weight: 600; }
.reveal { font-size: 30px; font-family: %(font)s; color: %(text)s; }
.reveal h1, .reveal h2 { font-family: %(font)s; color: %(text)s; text-transform: none; letter-spacing: 0; }
.reveal h1 { font-size: 1.8em; } .reveal h2 { font-size: 1.25em; border-bottom: 3px solid %(primary)s;
                                              padding-bottom: 0.15em; }
.reveal section { text-align: left; }
.reveal .title-slide { text-align: center; } .reveal .title-slide h1 { margin-top: 1.2em; }
.reveal .part { color: %(muted)s; } .reveal .book { color: %(primary)s; font-weight: 600; }
.reveal .book .logo { height: 1.6em; vertical-align: middle; margin: 0 0.4em 0 0; }
.reveal code { font-family: %(mono)s; background: %(surface)s; padding: 0 0.15em; border-radius: 0.15em; }
.reveal a { color: %(primary)s; }
.reveal figure { margin: 0.3em 0 0 0; text-align: center; }
.reveal figure img { max-height: 52vh; max-width: 100%%; margin: 0; }
.reveal figcaption { font-size: 0.55em; color: %(muted)s; text-align: left; }
.reveal .panel-note { font-size: 0.6em; color: %(muted)s; border-left: 4px solid %(accent)s; padding-left: 0.5em; }
.reveal p, .reveal li { line-height: 1.3; }
.reveal .summary li { font-size: 0.8em; }
.reveal table { font-size: 0.6em; } .reveal table th { border-bottom: 2px solid %(border)s; }
.reveal .slide-number { background: %(surface)s; color: %(muted)s; font-family: %(font)s; }
.reveal .progress { color: %(primary)s; }
""" % {"font": BOOK_FONT, "mono": MONO_FONT, **THEME}

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} — Interconnect Lab slides</title>
<link rel="icon" href="_static/logo.svg" type="image/svg+xml">
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
<script src="_static/reveal/plugin/notes.js"></script>
<script>Reveal.initialize({{hash: true, slideNumber: "c/t", width: 1280, height: 800, margin: 0.05,
                           plugins: [RevealNotes]}});</script>
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
        parts.append(f"<p class=\"panel-note\">{slide.panel}</p>")
    if slide.notes_html:
        parts.append(f"<aside class=\"notes\">\n{slide.notes_html}\n</aside>")
    classes = f" class=\"{slide.classes}\"" if slide.classes else ""
    return f"<section{classes}>\n" + "\n".join(p for p in parts if p) + "\n</section>"


INDEX = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Interconnect Lab: slides</title>
<link rel="icon" href="_static/logo.svg" type="image/svg+xml">
<style>
:root {{ color-scheme: light dark; --text: {text}; --muted: {muted}; --primary: {primary};
        --surface: {surface}; --border: {border}; --background: {background}; }}
@media (prefers-color-scheme: dark) {{
  :root {{ --text: #ced6dd; --muted: #9ca4af; --primary: #528fe4; --surface: #29313d; --border: #48566b;
          --background: #14181e; }}
}}
body {{ font-family: {font}; color: var(--text); background: var(--background); margin: 0; line-height: 1.5; }}
main {{ max-width: 46rem; margin: 0 auto; padding: 2rem 1.25rem 3rem; }}
header {{ display: flex; align-items: center; gap: 0.8rem; }}
header img {{ width: 3rem; height: 3rem; }}
h1 {{ font-size: 1.7rem; margin: 0; }}
p.lead {{ color: var(--muted); margin: 0.6rem 0 1.6rem; }}
h2 {{ font-size: 1.05rem; margin: 1.6rem 0 0.4rem; color: var(--muted); font-weight: 600; }}
ol {{ list-style: none; padding: 0; margin: 0; }}
li a {{ display: flex; justify-content: space-between; gap: 1rem; padding: 0.55rem 0.8rem; margin: 0.3rem 0;
        border: 1px solid var(--border); border-radius: 0.4rem; color: var(--text); text-decoration: none;
        background: var(--surface); }}
li a:hover, li a:focus-visible {{ border-color: var(--primary); color: var(--primary); }}
li .number {{ color: var(--primary); font-weight: 600; margin-right: 0.4rem; }}
li .count {{ color: var(--muted); white-space: nowrap; font-size: 0.9rem; }}
kbd {{ font-family: {mono}; border: 1px solid var(--border); border-radius: 0.2rem; padding: 0 0.25rem; }}
</style>
</head>
<body>
<main>
<header><img src="_static/logo.svg" alt=""><h1>Interconnect Lab: slides</h1></header>
<p class="lead">One deck per chapter, offline. Arrow keys move through a deck; <kbd>S</kbd> opens the speaker
view with each slide's notes (what to say, the numbers to point at, the question to ask); <kbd>F</kbd> is full
screen.</p>
{parts}
</main>
</body>
</html>
"""


def index_html(entries: list[tuple[str, str, str, int]]) -> str:
    """The decks' index: (part, deck file, chapter title, slide count) grouped by part, in book order."""
    parts, current = [], None
    for part, name, title, count in entries:
        if part != current:
            if current is not None:
                parts.append("</ol>")
            parts.append(f"<h2>{html.escape(part)}</h2><ol>")
            current = part
        number, _, words = title.partition(". ") if re.match(r"^\d+\. ", title) else (name[:2].lstrip("0"), "", title)
        parts.append(f"<li><a href=\"{html.escape(name)}\"><span><span class=\"number\">{html.escape(number)}.</span>"
                     f"{html.escape(words)}</span><span class=\"count\">{count} slides</span></a></li>")
    if current is not None:
        parts.append("</ol>")
    return INDEX.format(parts="\n".join(parts), font=BOOK_FONT, mono=MONO_FONT, **THEME)


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
    shutil.copy2(LOGO, output / "_static" / "logo.svg")


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
    decks, problems, entries = [], [], []
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
        problems += [f"{path.name}: slide '{s.title}' has no speaker notes" for s in slides if not s.notes_html]
        entries.append((parts.get(path.stem, ""), deck.name, document_titles().get(path.stem, title), len(slides)))
        print(f"{deck.relative_to(output)}: {len(slides)} slides, {sum(bool(s.notes_html) for s in slides)} "
              "with speaker notes")
    (output / "index.html").write_text(index_html(entries))
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
