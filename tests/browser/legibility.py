"""What a reader sees of a panel's text, measured in the page: every text drawn, where, and what collides.

The precomputed panels draw their figures on canvases (static-panels.js, with Chart.js), where
text leaves no element to measure. :data:`RECORD_TEXT` (a page init script) wraps the canvas's
``fillText`` so that each canvas keeps the box of every text it has drawn since it was last
cleared; :data:`JS_MEASURE` reads them for one panel in page coordinates, with the panel's HTML
texts that sit in or beside the figure (the values under a slider, the legend) and the boxes of its
charts. :func:`problems` then says, in a line each, which two texts overlap, which text is cut at
its chart's edge, which charts overlap, which legend entries look alike and which text is too faint
against what it stands on (the page, or a bar) in the colour scheme. The matplotlib side of the same question is
``interconnect_lab.plotting.legibility``.
"""

from __future__ import annotations

#: Installed before any page script: records the box of every text drawn on every canvas.
RECORD_TEXT = """(() => {
  const drawn = new WeakMap();
  window.__ilDrawnTexts = canvas => drawn.get(canvas) || [];
  const proto = CanvasRenderingContext2D.prototype, fill = proto.fillText, clear = proto.clearRect;
  proto.clearRect = function (x, y, w, h) {
    const t = this.getTransform(), c = this.canvas;
    if (x <= 0 && y <= 0 && w * t.a >= c.width - 1 && h * t.d >= c.height - 1) { drawn.set(c, []); }
    return clear.apply(this, arguments);
  };
  proto.fillText = function (text, x, y, maxWidth) {
    const string = String(text);
    if (string.trim()) {
      const m = this.measureText(string), t = this.getTransform();
      let left = m.actualBoundingBoxLeft, right = m.actualBoundingBoxRight;
      if (maxWidth !== undefined && left + right > maxWidth) {   // the browser squeezes it to fit
        const squeeze = maxWidth / (left + right);
        left *= squeeze; right *= squeeze;
      }
      const corners = [[x - left, y - m.actualBoundingBoxAscent], [x + right, y - m.actualBoundingBoxAscent],
                       [x - left, y + m.actualBoundingBoxDescent], [x + right, y + m.actualBoundingBoxDescent]]
        .map(([px, py]) => [t.a * px + t.c * py + t.e, t.b * px + t.d * py + t.f]);
      const xs = corners.map(p => p[0]), ys = corners.map(p => p[1]);
      const list = drawn.get(this.canvas) || [];
      list.push({text: string, x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys),
                 color: String(this.fillStyle), size: parseFloat(this.font) || 0});
      drawn.set(this.canvas, list);
    }
    return fill.apply(this, arguments);
  };
})();"""

#: One panel as drawn (argument: its id): charts, canvas texts and HTML texts in page coordinates [CSS px].
JS_MEASURE = r"""(id) => {
  const root = document.getElementById(id);
  const page = getComputedStyle(document.documentElement).getPropertyValue('--pst-color-background').trim()
      || getComputedStyle(document.body).backgroundColor;
  const box = r => ({x0: r.left + scrollX, y0: r.top + scrollY, x1: r.right + scrollX, y1: r.bottom + scrollY});
  const figure = root.querySelector('.il-sp-figure');
  // What a text stands on: the commonest colour in its box that is not the text's own (a bar
  // behind a value, or the page where the canvas is transparent).
  const rgb = css => { const c = document.createElement('canvas').getContext('2d'); c.fillStyle = css;
                       const h = c.fillStyle; return h.startsWith('#') ? [1, 3, 5].map(i => parseInt(h.slice(i, i + 2), 16))
                       : h.match(/[\d.]+/g).slice(0, 3).map(Number); };
  const pageRgb = rgb(page);
  const behind = (canvas, t, textRgb) => {
    const x = Math.max(0, Math.floor(t.x0)), y = Math.max(0, Math.floor(t.y0));
    const w = Math.min(canvas.width - x, Math.ceil(t.x1 - t.x0) + 1), h = Math.min(canvas.height - y, Math.ceil(t.y1 - t.y0) + 1);
    if (w <= 0 || h <= 0) { return pageRgb; }
    const data = canvas.getContext('2d').getImageData(x, y, w, h).data, counts = new Map();
    for (let i = 0; i < data.length; i += 4) {
      const a = data[i + 3] / 255;
      const px = [0, 1, 2].map(k => Math.round(data[i + k] * a + pageRgb[k] * (1 - a)));
      if (Math.abs(px[0] - textRgb[0]) + Math.abs(px[1] - textRgb[1]) + Math.abs(px[2] - textRgb[2]) < 90) { continue; }
      const key = px.map(v => v >> 3).join(',');
      const seen = counts.get(key) || {n: 0, px: px};
      seen.n += 1; counts.set(key, seen);
    }
    let best = null;
    counts.forEach(v => { if (!best || v.n > best.n) { best = v; } });
    return best ? best.px : pageRgb;
  };
  const charts = Array.from(root.querySelectorAll('.il-sp-axes:not([hidden]) canvas')).map((canvas, index) => {
    const r = canvas.getBoundingClientRect(), scale = r.width / canvas.width;
    const texts = window.__ilDrawnTexts(canvas).map(t => {
      const colour = rgb(t.color);
      return {text: t.text, color: colour, behind: behind(canvas, t, colour), size: t.size * scale, chart: index,
              x0: r.left + scrollX + t.x0 * scale, y0: r.top + scrollY + t.y0 * scale,
              x1: r.left + scrollX + t.x1 * scale, y1: r.top + scrollY + t.y1 * scale};
    });
    return {box: box(r), texts: texts};
  });
  const ticks = Array.from(root.querySelectorAll('.il-sp-ticks')).map(row =>
    Array.from(row.querySelectorAll('.il-sp-tick-label:not(.il-sp-tick-crowded)'))
      .filter(span => span.textContent.trim()).map(span => ({text: span.textContent, ...box(span.getBoundingClientRect())})));
  const legend = Array.from(root.querySelectorAll('.il-sp-legend li:not(.il-sp-legend-title)')).map(li => {
    const swatch = li.querySelector('.il-sp-swatch'), style = getComputedStyle(swatch);
    return {text: li.textContent, group: li.dataset.group, kind: swatch.className,
            colour: swatch.style.getPropertyValue('--il-swatch'), hatch: swatch.style.backgroundImage || ''};
  });
  return {figure: box(figure.getBoundingClientRect()), stacked: root.classList.contains('il-sp-stacked'),
          charts: charts, ticks: ticks, legend: legend, background: page,
          dark: document.documentElement.dataset.theme === 'dark'};
}"""

#: Overlap or overhang that does not count [CSS px]: glyph boxes touch at the edges of a line.
TOLERANCE_PX = 1.0


def _overlap(a, b, by=TOLERANCE_PX):
    return (a["x0"] + by < b["x1"] - by and b["x0"] + by < a["x1"] - by
            and a["y0"] + by < b["y1"] - by and b["y0"] + by < a["y1"] - by)


def _luminance(rgb):
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG contrast ratio of two colours given as (r, g, b) in 0-255 (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


#: Least contrast of a figure's text with the page (WCAG's for large text and graphics).
MIN_CONTRAST = 3.0


def problems(measured: dict, where: str) -> list[str]:
    """Everything that collides or cannot be read in one measured panel, a line each."""
    found = []
    texts = [t for chart in measured["charts"] for t in chart["texts"]]
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            if _overlap(a, b):
                found.append(f"{where}: text {a['text']!r} overlaps {b['text']!r}")
    for index, chart in enumerate(measured["charts"]):
        edge = chart["box"]
        for t in chart["texts"]:
            if (t["x0"] < edge["x0"] - TOLERANCE_PX or t["x1"] > edge["x1"] + TOLERANCE_PX
                    or t["y0"] < edge["y0"] - TOLERANCE_PX or t["y1"] > edge["y1"] + TOLERANCE_PX):
                found.append(f"{where}: text {t['text']!r} is cut at the edge of its plot")
        for other in measured["charts"][index + 1:]:
            if _overlap(edge, other["box"]):
                found.append(f"{where}: two plots overlap")
    for row in measured["ticks"]:
        for i, a in enumerate(row):
            for b in row[i + 1:]:
                if _overlap(a, b):
                    found.append(f"{where}: slider values {a['text']!r} and {b['text']!r} overlap")
    swatches = {}
    for entry in measured["legend"]:
        key = (entry["group"], entry["kind"], entry["colour"], entry["hatch"])
        if key in swatches and swatches[key] != entry["text"]:
            found.append(f"{where}: legend entries {swatches[key]!r} and {entry['text']!r} look the same")
        swatches.setdefault(key, entry["text"])
    for t in texts:
        ratio = contrast(t["color"], t["behind"])
        if ratio < MIN_CONTRAST:
            found.append(f"{where}: text {t['text']!r} is too faint (rgb{tuple(t['color'])} on "
                         f"rgb{tuple(t['behind'])}, contrast {ratio:.1f})")
    return found
