// The book's panels without a kernel (tools/sphinxext/static_panels.py adds this to pages that have one).
//
// Each <div class="il-static-panel"> holds, as JSON, what interconnect_lab computed for every
// combination of its controls when the book was built (interconnect_lab/widgets/static.py):
// describe()'s readout HTML and the matplotlib figure as data (axes, lines, patches, texts, ticks).
// This script only looks values up and draws them with Chart.js: no model runs here.
(function () {
  "use strict";

  var panels = [];
  var timings = [];  // {control, started, drawn}: input event to redrawn figure (benchmarks read these)

  // --- Colours: the figure follows the page's light or dark theme ---------------------
  function theme() {
    var style = getComputedStyle(document.documentElement);
    function get(name, fallback) { return style.getPropertyValue(name).trim() || fallback; }
    return {
      dark: document.documentElement.dataset.theme === "dark",
      fg: get("--pst-color-text-base", "#222832"),
      muted: get("--pst-color-text-muted", "#5f6368"),
      bg: get("--pst-color-background", "#ffffff"),
      border: get("--pst-color-border", "#d1d5da")
    };
  }

  function rgba(hex) {
    var h = hex.replace("#", "");
    return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16),
            h.length >= 8 ? parseInt(h.slice(6, 8), 16) / 255 : 1];
  }

  function withAlpha(css, alpha) {
    if (alpha >= 1) { return css; }
    var m = /^#([0-9a-f]{6})$/i.exec(css);
    if (m) { var c = rgba(css); return "rgba(" + c[0] + "," + c[1] + "," + c[2] + "," + alpha + ")"; }
    var r = /^rgba?\(([^)]*)\)$/.exec(css);
    if (r) { var p = r[1].split(","); return "rgba(" + p[0] + "," + p[1] + "," + p[2] + "," + alpha + ")"; }
    return css;
  }

  // matplotlib's black and white become the page's text and background colours, so that a
  // figure stays legible in dark mode; the palette's colours are kept.
  function colour(hex, th) {
    if (!hex) { return null; }
    var c = rgba(hex), lum = (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255;
    if (lum < 0.2) { return withAlpha(th.fg, c[3]); }
    if (lum > 0.93) { return withAlpha(th.bg, c[3]); }
    return "rgba(" + c[0] + "," + c[1] + "," + c[2] + "," + c[3] + ")";
  }

  // --- One axes of the matplotlib figure as one Chart.js chart ---------------------------
  var MARKERS = {o: "circle", ".": "circle", s: "rect", "^": "triangle", v: "triangle", D: "rectRot", d: "rectRot",
                 x: "crossRot", X: "crossRot", "+": "cross", P: "cross", "*": "star", "|": "line", "_": "dash"};

  function pixel(scale, value) {
    if (value === null || value === undefined || (scale.type === "logarithmic" && value <= 0)) {
      return scale.getPixelForValue(scale.min);
    }
    return scale.getPixelForValue(value);
  }

  // A matplotlib hatch ("///", "\\\\", "xx", "..", "++", "--", "||") over the current clip
  // region: lines in the edge colour, denser the more the symbol repeats.
  function drawHatch(ctx, hatch, box, colour, ptpx) {
    var count = function (c) { return hatch.split(c).length - 1; };
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.lineWidth = Math.max(0.6, ptpx);
    var left = box[0], top = box[1], right = box[0] + box[2], bottom = box[1] + box[3], span = box[2] + box[3];
    function lines(n, draw) {
      if (!n) { return; }
      var step = Math.max(3, 18 * ptpx / (n + 1));
      ctx.beginPath();
      for (var d = -span; d <= span; d += step) { draw(d); }
      ctx.stroke();
    }
    lines(count("/") + count("x"), function (d) { ctx.moveTo(left + d, bottom); ctx.lineTo(left + d + span, bottom - span); });
    lines(count("\\") + count("x"), function (d) { ctx.moveTo(left + d, top); ctx.lineTo(left + d + span, top + span); });
    lines(count("-") + count("+"), function (d) { if (d >= 0) { ctx.moveTo(left, top + d); ctx.lineTo(right, top + d); } });
    lines(count("|") + count("+"), function (d) { if (d >= 0) { ctx.moveTo(left + d, top); ctx.lineTo(left + d, bottom); } });
    var dots = count(".") + count("o");
    if (dots) {
      var gap = Math.max(3, 18 * ptpx / (dots + 1));
      for (var x = left + gap / 2; x < right; x += gap) {
        for (var y = top + gap / 2; y < bottom; y += gap) { ctx.fillRect(x - 0.75, y - 0.75, 1.5, 1.5); }
      }
    }
    ctx.restore();
  }

  // The CSS of a hatched legend swatch, as the hatch draws on the figure: dots for "." and "o",
  // otherwise stripes at the hatch's angles ("/" and "\\" diagonal, "-" level, "|" upright,
  // "x" and "+" both of their pair).
  function hatchSwatch(hatch) {
    var has = function (c) { return hatch.indexOf(c) >= 0; };
    if (has(".") || has("o")) {
      return {image: "radial-gradient(circle, rgba(255,255,255,0.9) 0 0.9px, transparent 1.2px)", size: "4px 4px"};
    }
    var stripes = function (angle) {
      return "repeating-linear-gradient(" + angle + ", transparent 0 2px, rgba(255,255,255,0.85) 2px 3px)";
    };
    var angles = [];
    if (has("/") || has("x")) { angles.push("-45deg"); }
    if (has("\\") || has("x")) { angles.push("45deg"); }
    if (has("-") || has("+")) { angles.push("0deg"); }
    if (has("|") || has("+")) { angles.push("90deg"); }
    return {image: (angles.length ? angles : ["-45deg"]).map(stripes).join(", "), size: ""};
  }

  function drawShapes(chart, items, ptpx) {
    var ctx = chart.ctx, xs = chart.scales.x, ys = chart.scales.y, area = chart.chartArea, th = chart.$il.theme;
    items.forEach(function (item) {
      ctx.save();
      if (item.clip !== false && item.k !== "text") {
        ctx.beginPath();
        ctx.rect(area.left, area.top, area.right - area.left, area.bottom - area.top);
        ctx.clip();
      }
      if (item.k === "poly") {
        var face = colour(item.fc, th), edge = colour(item.ec, th);
        ctx.lineWidth = Math.max(0.5, (item.lw || 0) * ptpx);
        (item.r || []).forEach(function (r) {
          var x0 = pixel(xs, r[0]), x1 = pixel(xs, r[2]), y0 = pixel(ys, r[1]), y1 = pixel(ys, r[3]);
          var x = Math.min(x0, x1), y = Math.min(y0, y1), w = Math.abs(x1 - x0), h = Math.abs(y1 - y0);
          if (face) { ctx.fillStyle = face; ctx.fillRect(x, y, w, h); }
          if (item.h) {
            ctx.save();
            ctx.beginPath(); ctx.rect(x, y, w, h); ctx.clip();
            drawHatch(ctx, item.h, [x, y, w, h], edge || th.fg, ptpx);
            ctx.restore();
          }
          if (edge && item.lw > 0) { ctx.strokeStyle = edge; ctx.strokeRect(x, y, w, h); }
        });
        (item.p || []).forEach(function (p) {
          ctx.beginPath();
          for (var i = 0; i + 1 < p.length; i += 2) {
            var x = pixel(xs, p[i]), y = pixel(ys, p[i + 1]);
            if (i === 0) { ctx.moveTo(x, y); } else { ctx.lineTo(x, y); }
          }
          if (!item.open) { ctx.closePath(); }
          if (face && !item.open) { ctx.fillStyle = face; ctx.fill(); }
          if (item.h && !item.open) {
            ctx.save();
            ctx.clip();
            drawHatch(ctx, item.h, [area.left, area.top, area.right - area.left, area.bottom - area.top],
                      edge || th.fg, ptpx);
            ctx.restore();
          }
          if (edge && item.lw > 0) { ctx.strokeStyle = edge; ctx.stroke(); }
        });
      } else if (item.k === "pts") {
        for (var j = 0; j + 1 < item.xy.length; j += 2) {
          var n = j / 2, fc = colour(item.fc[n % item.fc.length], th), ec = colour(item.ec[n % item.ec.length], th);
          var radius = item.s[n % item.s.length] * ptpx / 2;
          ctx.beginPath();
          ctx.arc(pixel(xs, item.xy[j]), pixel(ys, item.xy[j + 1]), radius, 0, 2 * Math.PI);
          if (fc) { ctx.fillStyle = fc; ctx.fill(); }
          if (ec) { ctx.strokeStyle = ec; ctx.stroke(); }
        }
      } else if (item.k === "text") {
        var size = textSize(item, ptpx), lines = item.s.split("\n");
        ctx.font = (item.b ? "bold " : "") + cssFont(size);
        ctx.textAlign = item.ha === "left" ? "left" : item.ha === "right" ? "right" : "center";
        ctx.textBaseline = "middle";
        var x0 = pixel(xs, item.xy[0]), y0 = pixel(ys, item.xy[1]), height = size * 1.2 * lines.length;
        var top = item.va === "top" ? y0 : item.va === "bottom" ? y0 - height : y0 - height / 2;
        var box = textBox(chart, item, ptpx);
        ctx.fillStyle = ink(chart, item.c, (box[0] + box[2]) / 2, (box[1] + box[3]) / 2, th);
        ctx.translate(x0, y0);
        if (item.rot) { ctx.rotate(-item.rot * Math.PI / 180); }
        lines.forEach(function (line, i) { ctx.fillText(line, 0, top - y0 + size * 1.2 * (i + 0.5)); });
      }
      ctx.restore();
    });
  }

  function textSize(item, ptpx) { return Math.max(9, item.fs * ptpx); }

  function luminance(c) {
    var lin = function (v) { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  }

  // The colour of a text item. A black, white or grey text written on a bar (a count inside it)
  // takes black or white, whichever reads better on what is drawn under its middle; elsewhere it
  // follows the page's text colour, as everything black does.
  function ink(chart, hex, x, y, th) {
    var c = hex ? rgba(hex) : [0, 0, 0, 1];
    if (Math.max(c[0], c[1], c[2]) - Math.min(c[0], c[1], c[2]) > 24) { return colour(hex, th); }
    var r = chart.currentDevicePixelRatio || 1;
    var px = chart.ctx.getImageData(Math.round(x * r), Math.round(y * r), 1, 1).data;
    if (px[3] < 200) { return colour(hex, th) || th.fg; }
    var l = luminance(px);
    return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
  }

  // Where a text item lands on its chart [CSS px]: [left, top, right, bottom] (unrotated texts).
  function textBox(chart, item, ptpx) {
    var size = textSize(item, ptpx), lines = item.s.split("\n");
    measuring.font = (item.b ? "bold " : "") + cssFont(size);
    var width = Math.max.apply(null, lines.map(function (l) { return measuring.measureText(l).width; }));
    var x = pixel(chart.scales.x, item.xy[0]), y = pixel(chart.scales.y, item.xy[1]);
    var height = size * 1.2 * lines.length;
    var left = item.ha === "left" ? x : item.ha === "right" ? x - width : x - width / 2;
    var top = item.va === "top" ? y : item.va === "bottom" ? y - height : y - height / 2;
    return [left, top, left + width, top + height];
  }

  var shapesPlugin = {
    id: "ilShapes",
    beforeDatasetsDraw: function (chart) { drawShapes(chart, chart.$il.below, chart.$il.ptpx); },
    afterDatasetsDraw: function (chart) { drawShapes(chart, chart.$il.above, chart.$il.ptpx); }
  };

  // Text measured outside any chart (tick labels are wrapped before Chart.js lays them out).
  var measuring = document.createElement("canvas").getContext("2d");

  function scaleOptions(axes, axis, th, ptpx, room) {
    var ticks = axes[axis + "t"], label = axes[axis + "lab"], size = Math.max(10, 10 * ptpx);
    // A long tick label on the vertical axis (a bar's name) takes at most `room.px` pixels: longer
    // ones are broken into lines.
    var text = function (index) {
      var t = ticks[index] ? ticks[index][1] : "";
      return axis === "y" && room ? fitLines(measuring, t, cssFont(size), room.px) : t;
    };
    return {
      type: axes[axis + "s"] === "log" ? "logarithmic" : "linear",
      min: axes[axis + "l"][0], max: axes[axis + "l"][1], reverse: axes[axis + "inv"], display: axes.on,
      grid: {display: axes.grid, color: withAlpha(th.muted, 0.25)},
      border: {display: true, color: th.muted},
      title: {display: Boolean(label), text: label, color: th.fg, font: {size: size * 1.05}},
      afterBuildTicks: function (scale) { scale.ticks = ticks.map(function (t) { return {value: t[0]}; }); },
      // matplotlib's ticks and labels; on a narrow chart Chart.js drops every other label of the
      // horizontal axis rather than let two overprint (the vertical axis's labels may name bars: all
      // stay, and a narrow screen gives the chart the height they need).
      ticks: {color: th.fg, autoSkip: axis === "x", autoSkipPadding: 8, maxRotation: 0,
              font: {size: size},
              callback: function (value, index) { return text(index); }}
    };
  }

  function titleOptions(axes, th, ptpx) {
    var t = axes.title, text = t[0] || t[1] || t[2];
    return {display: Boolean(text), text: text ? text.split("\n") : "", color: th.fg,
            align: t[0] ? "start" : t[2] ? "end" : "center",
            font: {size: Math.max(11, 11 * ptpx), weight: "normal"}, padding: {top: 2, bottom: 6}};
  }

  function lineDataset(item, th, ptpx) {
    var data = [], xy = item.xy;
    for (var i = 0; i + 1 < xy.length; i += 2) {
      data.push({x: xy[i], y: xy[i] === null ? null : xy[i + 1]});
    }
    var c = colour(item.c, th) || th.fg, marker = item.m ? MARKERS[item.m] || "circle" : false;
    return {
      data: data, showLine: item.dash !== null, spanGaps: false, stepped: item.step || false,
      borderColor: c, backgroundColor: c, borderWidth: item.lw * ptpx,
      borderDash: (item.dash || []).map(function (d) { return d * item.lw * ptpx; }),
      pointRadius: marker ? item.ms * ptpx / 2 : 0, pointStyle: marker || "circle",
      pointRotation: item.m === "v" ? 180 : 0,
      pointBackgroundColor: colour(item.mfc, th) || "transparent", pointBorderColor: colour(item.mec, th) || c,
      pointBorderWidth: marker ? Math.max(1, ptpx) : 0, clip: item.clip ? undefined : false,
      order: -item.z
    };
  }

  // --- A panel ----------------------------------------------------------------------------
  // The panel's data as the build stored it (data-encoding="gzip+base64"): JSON,
  // gzip-compressed and base64-encoded.
  function readData(root) {
    var element = root.querySelector("script.il-sp-data");
    var text = atob(element.textContent.trim()), bytes = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) { bytes[i] = text.charCodeAt(i); }
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text().then(JSON.parse);
  }

  function Panel(root, data) {
    this.root = root;
    this.data = data;
    this.state = this.data.controls.map(function (c) { return c.index; });
    this.strides = [];
    var stride = 1;
    for (var i = this.data.controls.length - 1; i >= 0; i--) {
      this.strides[i] = stride;
      stride *= this.data.controls[i].labels.length;
    }
    this.readout = root.querySelector(".il-sp-readout");
    this.figure = root.querySelector(".il-sp-figure");
    this.legend = document.createElement("ul");
    this.legend.className = "il-sp-legend";
    this.figure.insertAdjacentElement("afterend", this.legend);
    this.charts = {};
    this.renders = 0;
    var self = this;
    root.querySelectorAll("[data-control]").forEach(function (input) {
      var index = Number(input.dataset.control);
      var handler = function (event) {
        var value = input.type === "checkbox" ? (input.checked ? 1 : 0) : Number(input.value);
        self.state[index] = value;
        if (input.type === "range") {
          var text = self.data.controls[index].labels[value];
          input.setAttribute("aria-valuetext", text);
          var out = root.querySelector("output[for='" + input.id + "']");
          if (out) { out.textContent = text; }
        }
        self.render();
        timings.push({panel: self.data.panel, control: self.data.controls[index].name,
                      started: event.timeStamp, drawn: performance.now()});
      };
      input.addEventListener(input.type === "range" ? "input" : "change", handler);
    });
    // Redrawn when the figure's width changes (not its height, which stacking sets), a frame later
    // so that a redraw's own change of size is not reported within the same observation.
    var drawnWidth = null;
    new ResizeObserver(function (entries) {
      var width = Math.round(entries[0].contentRect.width);
      if (width === drawnWidth) { return; }
      drawnWidth = width;
      window.requestAnimationFrame(function () { self.render(true); });
    }).observe(this.figure);
    this.render();
  }

  Panel.prototype.combination = function () {
    var k = 0;
    for (var i = 0; i < this.state.length; i++) { k += this.state[i] * this.strides[i]; }
    return k;
  };

  Panel.prototype.render = function (force) {
    var d = this.data, k = this.combination(), th = theme();
    var html = d.readouts[d.readout[k]];
    if (this.readout.innerHTML !== html) { this.readout.innerHTML = html; }
    var sceneIndex = d.scene[k];
    if (force && this.sceneIndex !== undefined) { sceneIndex = this.sceneIndex; }  // redraw what is shown
    if (sceneIndex < 0) { this.done(k); return; }  // the model refused: keep the last figure, as live
    if (!force && sceneIndex === this.sceneIndex && th.dark === this.dark) { this.done(k); return; }
    this.sceneIndex = sceneIndex;
    this.dark = th.dark;
    var items = d.scenes[sceneIndex].map(function (i) { return d.items[i]; });
    this.draw(items, th);
    this.done(k);
  };

  Panel.prototype.done = function (k) {
    this.renders += 1;
    this.root.dataset.combination = String(k);
    this.root.dataset.renders = String(this.renders);
    this.root.dataset.scene = String(this.sceneIndex);
  };

  // Each axes gets the part of the figure its matplotlib axes, ticks, labels and title take
  // ("outer", figure fractions): Chart.js lays out ticks and labels inside it.
  function regions(axes) {
    var boxes = axes.map(function (a) { return a.box; });
    if (axes.every(function (a) { return a.outer; })) {
      return separate(axes.map(function (a) {
        return {left: a.outer[0], bottom: a.outer[1], right: a.outer[2], top: a.outer[3]};
      }), boxes);
    }
    return boxes.map(function (b) {
      var r = {left: 0, right: 1, bottom: 0, top: 1};
      boxes.forEach(function (o) {
        if (o === b) { return; }
        var overlapY = o[1] < b[1] + b[3] && b[1] < o[1] + o[3];
        var overlapX = o[0] < b[0] + b[2] && b[0] < o[0] + o[2];
        if (overlapY && o[0] + o[2] <= b[0] + 1e-6) { r.left = Math.max(r.left, (o[0] + o[2] + b[0]) / 2); }
        if (overlapY && o[0] >= b[0] + b[2] - 1e-6) { r.right = Math.min(r.right, (b[0] + b[2] + o[0]) / 2); }
        if (overlapX && o[1] + o[3] <= b[1] + 1e-6) { r.bottom = Math.max(r.bottom, (o[1] + o[3] + b[1]) / 2); }
        if (overlapX && o[1] >= b[1] + b[3] - 1e-6) { r.top = Math.min(r.top, (b[1] + b[3] + o[1]) / 2); }
      });
      return r;
    });
  }

  // matplotlib's outer boxes may overlap (a long title reaching over the plot beside it); each
  // chart gets its own part of the figure, cut half way between the two axes.
  function separate(rs, boxes) {
    rs.forEach(function (r, i) {
      rs.forEach(function (o, j) {
        if (j <= i || !(r.left < o.right && o.left < r.right && r.bottom < o.top && o.bottom < r.top)) { return; }
        var b = boxes[i], c = boxes[j];
        if (b[0] + b[2] <= c[0] || c[0] + c[2] <= b[0]) {          // side by side
          var first = b[0] < c[0] ? [r, b, o, c] : [o, c, r, b];
          var cut = (first[1][0] + first[1][2] + first[3][0]) / 2;
          cut = Math.min(Math.max(cut, first[2].left), first[0].right);
          first[0].right = Math.min(first[0].right, cut);
          first[2].left = Math.max(first[2].left, cut);
        } else {                                                     // one above the other
          var upper = b[1] > c[1] ? [r, b, o, c] : [o, c, r, b];
          var level = (upper[3][1] + upper[3][3] + upper[1][1]) / 2;
          upper[0].bottom = Math.max(upper[0].bottom, level);
          upper[2].top = Math.min(upper[2].top, level);
        }
      });
    });
    return rs;
  }

  //: Below this width [CSS px] the plots of a figure are stacked, one under the other, each as wide
  //: as the figure (two plots side by side would get about 160 pixels each on a phone) and at least
  //: as tall as its labels need.
  var STACK_BELOW_PX = 600;

  // On a narrow screen the plots are stacked in reading order, each as wide as the figure and as
  // tall as its own shape asks (within limits): figure fractions of the new, taller figure.
  function stacked(rs, figure, width, needs) {
    var order = rs.map(function (r, i) { return i; }).sort(function (i, j) {
      var a = rs[i], b = rs[j];
      if (Math.abs(a.top - b.top) > 0.05) { return b.top - a.top; }
      return a.left - b.left;
    });
    var heights = rs.map(function (r, i) {
      var shape = ((r.top - r.bottom) * figure.height_in) / ((r.right - r.left) * figure.width_in);
      // Room for every line of the vertical axis's labels, and for the title and horizontal axis.
      var need = Math.max(180, 110 + 15 * needs[i]);
      return Math.min(Math.max(width * shape, need), Math.max(1.1 * width, need));
    });
    var total = heights.reduce(function (a, b) { return a + b; }, 0), y = 0, out = [];
    order.forEach(function (i) {
      out[i] = {left: 0, right: 1, top: 1 - y / total, bottom: 1 - (y + heights[i]) / total};
      y += heights[i];
    });
    return {regions: out, height: total};
  }

  // Text that is too long for its place is broken into lines at spaces (Chart.js draws an array
  // of lines); a single word that is still too long is left to the font size.
  function fitLines(ctx, text, font, room) {
    if (!text || room <= 0) { return text; }
    ctx.save();
    ctx.font = font;
    var fits = function (t) { return ctx.measureText(t).width <= room; };
    var lines = [], line = "";
    String(text).split("\n").forEach(function (paragraph) {
      line = "";
      paragraph.split(" ").forEach(function (word) {
        var next = line ? line + " " + word : word;
        if (line && !fits(next)) { lines.push(line); line = word; } else { line = next; }
      });
      lines.push(line);
    });
    ctx.restore();
    return lines.length === 1 ? lines[0] : lines;
  }

  function cssFont(size) { return size.toFixed(1) + "px system-ui, -apple-system, 'Segoe UI', sans-serif"; }

  // After a first layout: break the title and axis titles that do not fit their chart, and make
  // room at the chart's edges for texts placed beyond its plot (a value written after a bar); then
  // lay out again (only when something changed).
  function fitChart(chart) {
    var ctx = chart.ctx, changed = false;
    for (var pass = 0; pass < 5; pass++) {
      var area = chart.chartArea;
      if (!area) { return; }
      [["x", area.right - area.left], ["y", area.bottom - area.top]].forEach(function (pair) {
        var title = chart.options.scales[pair[0]].title;
        if (!title.display || Array.isArray(title.text)) { return; }
        var lines = fitLines(ctx, title.text, cssFont(title.font.size), pair[1]);
        if (Array.isArray(lines)) { title.text = lines; changed = true; }
      });
      var head = chart.options.plugins.title;
      if (head.display && head.text.length === 1) {
        var lines = fitLines(ctx, head.text[0], cssFont(head.font.size), chart.width - 8);
        if (Array.isArray(lines)) { head.text = lines; changed = true; }
      }
      // A text at a fraction f of the plot's width that overhangs the right edge by o comes back
      // inside when the plot narrows by o / f (and likewise on the other sides).
      var padding = chart.options.layout.padding, extra = {left: 0, right: 0, top: 0, bottom: 0};
      var width = Math.max(1, area.right - area.left), height = Math.max(1, area.bottom - area.top);
      chart.$il.above.forEach(function (item) {
        if (item.k !== "text" || item.rot) { return; }
        var box = textBox(chart, item, chart.$il.ptpx);
        var fx = Math.min(Math.max((pixel(chart.scales.x, item.xy[0]) - area.left) / width, 0.2), 1);
        var fy = Math.min(Math.max((pixel(chart.scales.y, item.xy[1]) - area.top) / height, 0.2), 1);
        extra.left = Math.max(extra.left, (-box[0] + 1) / (1.2 - fx));
        extra.top = Math.max(extra.top, (-box[1] + 1) / (1.2 - fy));
        extra.right = Math.max(extra.right, (box[2] - chart.width + 2) / fx);
        extra.bottom = Math.max(extra.bottom, (box[3] - chart.height + 1) / fy);
      });
      var grown = false;
      ["left", "right", "top", "bottom"].forEach(function (side) {
        if (extra[side] > 0) { padding[side] = (padding[side] || 0) + Math.ceil(extra[side]); grown = true; }
      });
      if (grown) {   // a narrower plot leaves its vertical axis's labels less room too
        chart.$il.room.px = Math.min(chart.$il.room.px,
                                     0.45 * (chart.width - (padding.left || 0) - (padding.right || 0)));
      }
      if (!changed && !grown) { return; }
      chart.update("none");
      changed = false;
    }
  }

  Panel.prototype.draw = function (items, th) {
    var self = this, width = this.figure.clientWidth || 600, figure = this.data.figure;
    var axes = items.filter(function (i) { return i.k === "axes"; });
    var fig = items.filter(function (i) { return i.k === "fig"; })[0];
    var boxes = regions(axes), narrow = width < STACK_BELOW_PX;
    // Points to pixels: the figure's own scale, within limits (on a phone, the smallest).
    var ptpx = narrow ? 0.9 : Math.max(0.9, Math.min(1.6, width / (figure.width_in * 72)));
    // The room each chart gives the labels of its vertical axis (Chart.js lets that axis take at
    // most half the chart), and the lines they take there.
    var rooms = boxes.map(function (r) { return 0.48 * width * (narrow ? 1 : r.right - r.left); });
    if (narrow) {
      var font = cssFont(Math.max(10, 10 * ptpx));
      var lines = axes.map(function (a, n) {
        return a.yt.reduce(function (sum, t) {
          var fitted = fitLines(measuring, t[1], font, rooms[n]);
          return sum + (Array.isArray(fitted) ? fitted.length : 1);
        }, 0);
      });
      var stack = stacked(boxes, figure, width, lines);
      boxes = stack.regions;
      this.figure.style.aspectRatio = width.toFixed(1) + " / " + stack.height.toFixed(1);
      this.root.classList.add("il-sp-stacked");
    } else {
      this.figure.style.aspectRatio = figure.width_in + " / " + figure.height_in;
      this.root.classList.remove("il-sp-stacked");
    }
    var seen = {};
    axes.forEach(function (a, n) {
      seen[a.i] = true;
      var chart = self.charts[a.i], region = boxes[n];
      var artists = items.filter(function (i) { return i.ax === a.i; });
      var lines = artists.filter(function (i) { return i.k === "line"; });
      var shapes = artists.filter(function (i) { return i.k !== "line"; })
        .sort(function (p, q) { return p.z - q.z; });
      var il = {theme: th, ptpx: ptpx, room: {px: rooms[n]},
                below: shapes.filter(function (i) { return i.z < 2 && i.k !== "text"; }),
                above: shapes.filter(function (i) { return i.z >= 2 || i.k === "text"; })};
      var datasets = lines.map(function (i) { return lineDataset(i, th, ptpx); });
      var options = {
        animation: false, responsive: true, maintainAspectRatio: false, parsing: false, events: [],
        layout: {padding: {left: 2, right: 2, top: 2, bottom: 2}},
        plugins: {legend: {display: false}, tooltip: {enabled: false}, title: titleOptions(a, th, ptpx)},
        scales: {x: scaleOptions(a, "x", th, ptpx),
                 y: scaleOptions(a, "y", th, ptpx, il.room)}
      };
      if (!chart) {
        var box = document.createElement("div");
        box.className = "il-sp-axes";
        var canvas = document.createElement("canvas");
        canvas.setAttribute("aria-hidden", "true");
        box.appendChild(canvas);
        self.figure.appendChild(box);
        chart = new window.Chart(canvas, {type: "scatter", data: {datasets: datasets}, options: options,
                                          plugins: [shapesPlugin]});
        chart.$il = il;
        self.charts[a.i] = chart;
      } else {
        chart.$il = il;
        chart.data.datasets = datasets;
        chart.options = options;
      }
      var style = chart.canvas.parentNode.style;
      style.left = (100 * region.left) + "%";
      style.width = (100 * (region.right - region.left)) + "%";
      style.top = (100 * (1 - region.top)) + "%";
      style.height = (100 * (region.top - region.bottom)) + "%";
      chart.canvas.parentNode.hidden = false;
      chart.resize();
      chart.update("none");
      fitChart(chart);
    });
    Object.keys(this.charts).forEach(function (i) {
      if (!seen[i]) { self.charts[i].canvas.parentNode.hidden = true; }
    });
    this.drawLegend(axes, fig, th);
    thinTicks(this.root);
  };

  // What names a plot in a legend's heading: its title, else its axis labels.
  function plotName(a) {
    var title = a.title.filter(Boolean).join(" ");
    return title || a.xlab || a.ylab || "";
  }

  // Legends and the figure's title as text, under the figure: one group per plot that has a
  // legend, headed by the plot's name when there are several (two plots may use the same colours
  // for different things), then the figure's own legend.
  Panel.prototype.drawLegend = function (axes, fig, th) {
    var self = this, groups = [];
    if (fig && fig.title) { groups.push({title: fig.title, entries: []}); }
    var withLegend = axes.filter(function (a) { return a.legend.length; });
    withLegend.forEach(function (a) {
      groups.push({heading: withLegend.length > 1 ? plotName(a) : "", entries: a.legend});
    });
    if (fig && fig.legend.length) { groups.push({heading: "", entries: fig.legend}); }
    var key = JSON.stringify(groups) + th.dark;
    if (key === this.legendKey) { return; }
    this.legendKey = key;
    this.legend.textContent = "";
    groups.forEach(function (group, g) {
      var heading = group.title || group.heading;
      if (heading) {
        var head = document.createElement("li");
        head.className = "il-sp-legend-title";
        head.textContent = heading;
        self.legend.appendChild(head);
      }
      group.entries.forEach(function (e) {
        var li = document.createElement("li");
        li.dataset.group = String(g);
        var swatch = document.createElement("span");
        swatch.className = "il-sp-swatch il-sp-swatch-" + e[1];
        swatch.style.setProperty("--il-swatch", colour(e[2], th) || th.fg);
        if (e[3]) {
          var hatched = hatchSwatch(e[3]);
          swatch.style.backgroundImage = hatched.image;
          swatch.style.backgroundSize = hatched.size;
        }
        swatch.setAttribute("aria-hidden", "true");
        li.appendChild(swatch);
        li.appendChild(document.createTextNode(e[0]));
        self.legend.appendChild(li);
      });
    });
  };

  // The values written under an unevenly stepped slider: a label that would run into the one
  // before it is left out (its tick mark stays); the first and the last are always written.
  function thinTicks(root) {
    root.querySelectorAll(".il-sp-ticks").forEach(function (ticks) {
      var labels = Array.from(ticks.querySelectorAll(".il-sp-tick-label"));
      labels.forEach(function (label) { label.classList.remove("il-sp-tick-crowded"); });
      var shown = [], gap = 6;
      labels.forEach(function (label, i) {
        var box = label.getBoundingClientRect(), last = shown[shown.length - 1];
        if (last && box.left < last.box.right + gap) {
          if (i === labels.length - 1) {      // keep the last: drop the one before it instead
            last.label.classList.add("il-sp-tick-crowded");
            shown.pop();
          } else {
            label.classList.add("il-sp-tick-crowded");
            return;
          }
        }
        shown.push({label: label, box: box});
      });
    });
  }

  function start() {
    // Without Chart.js or DecompressionStream (browsers before 2023) the panel keeps its
    // initial readout and its note, and draws nothing.
    if (!window.Chart || !window.DecompressionStream) { return; }
    document.querySelectorAll(".il-static-panel").forEach(function (root) {
      readData(root).then(function (data) {
        panels.push(new Panel(root, data));
        root.classList.add("il-sp-ready");
      }).catch(function (error) {
        root.classList.add("il-sp-failed");
        console.error("static panel " + root.id + ": " + error);
      });
    });
    // Redraw when the reader switches between the light and dark themes.
    new MutationObserver(function () {
      panels.forEach(function (p) { p.render(true); });
    }).observe(document.documentElement, {attributes: true, attributeFilter: ["data-theme", "data-mode"]});
  }

  window.ilStaticPanels = {panels: panels, timings: timings};
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
