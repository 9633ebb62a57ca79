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

  // The CSS of a hatched legend swatch: diagonal stripes of the edge colour over the face.
  function hatchSwatch(hatch) {
    var angle = hatch.indexOf("\\") >= 0 ? "45deg" : "-45deg";
    var stripes = "repeating-linear-gradient(" + angle + ", transparent 0 2px, rgba(255,255,255,0.85) 2px 3px)";
    return hatch.indexOf("x") >= 0 ? stripes + ", " + stripes.replace(angle, angle === "45deg" ? "-45deg" : "45deg") : stripes;
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
        var size = Math.max(9, item.fs * ptpx), lines = item.s.split("\n");
        ctx.font = (item.b ? "bold " : "") + size.toFixed(1) + "px system-ui, -apple-system, 'Segoe UI', sans-serif";
        ctx.fillStyle = colour(item.c, th) || th.fg;
        ctx.textAlign = item.ha === "left" ? "left" : item.ha === "right" ? "right" : "center";
        ctx.textBaseline = "middle";
        var x0 = pixel(xs, item.xy[0]), y0 = pixel(ys, item.xy[1]), height = size * 1.2 * lines.length;
        var top = item.va === "top" ? y0 : item.va === "bottom" ? y0 - height : y0 - height / 2;
        ctx.translate(x0, y0);
        if (item.rot) { ctx.rotate(-item.rot * Math.PI / 180); }
        lines.forEach(function (line, i) { ctx.fillText(line, 0, top - y0 + size * 1.2 * (i + 0.5)); });
      }
      ctx.restore();
    });
  }

  var shapesPlugin = {
    id: "ilShapes",
    beforeDatasetsDraw: function (chart) { drawShapes(chart, chart.$il.below, chart.$il.ptpx); },
    afterDatasetsDraw: function (chart) { drawShapes(chart, chart.$il.above, chart.$il.ptpx); }
  };

  function scaleOptions(axes, axis, th, ptpx) {
    var ticks = axes[axis + "t"], label = axes[axis + "lab"], size = Math.max(10, 10 * ptpx);
    return {
      type: axes[axis + "s"] === "log" ? "logarithmic" : "linear",
      min: axes[axis + "l"][0], max: axes[axis + "l"][1], reverse: axes[axis + "inv"], display: axes.on,
      grid: {display: axes.grid, color: withAlpha(th.muted, 0.25)},
      border: {display: true, color: th.muted},
      title: {display: Boolean(label), text: label, color: th.fg, font: {size: size * 1.05}},
      afterBuildTicks: function (scale) { scale.ticks = ticks.map(function (t) { return {value: t[0]}; }); },
      ticks: {color: th.fg, autoSkip: false, maxRotation: 0, font: {size: size},
              callback: function (value, index) { return ticks[index] ? ticks[index][1] : ""; }}
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
    new ResizeObserver(function () { self.render(true); }).observe(this.figure);
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
      return axes.map(function (a) {
        return {left: a.outer[0], bottom: a.outer[1], right: a.outer[2], top: a.outer[3]};
      });
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

  Panel.prototype.draw = function (items, th) {
    var self = this, width = this.figure.clientWidth || 600;
    var ptpx = Math.max(0.9, Math.min(1.6, width / (this.data.figure.width_in * 72)));
    var axes = items.filter(function (i) { return i.k === "axes"; });
    var fig = items.filter(function (i) { return i.k === "fig"; })[0];
    var boxes = regions(axes);
    var seen = {};
    axes.forEach(function (a, n) {
      seen[a.i] = true;
      var chart = self.charts[a.i], region = boxes[n];
      var artists = items.filter(function (i) { return i.ax === a.i; });
      var lines = artists.filter(function (i) { return i.k === "line"; });
      var shapes = artists.filter(function (i) { return i.k !== "line"; })
        .sort(function (p, q) { return p.z - q.z; });
      var il = {theme: th, ptpx: ptpx,
                below: shapes.filter(function (i) { return i.z < 2 && i.k !== "text"; }),
                above: shapes.filter(function (i) { return i.z >= 2 || i.k === "text"; })};
      var datasets = lines.map(function (i) { return lineDataset(i, th, ptpx); });
      var options = {
        animation: false, responsive: true, maintainAspectRatio: false, parsing: false, events: [],
        layout: {padding: 2},
        plugins: {legend: {display: false}, tooltip: {enabled: false}, title: titleOptions(a, th, ptpx)},
        scales: {x: scaleOptions(a, "x", th, ptpx), y: scaleOptions(a, "y", th, ptpx)}
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
      chart.update("none");
    });
    Object.keys(this.charts).forEach(function (i) {
      if (!seen[i]) { self.charts[i].canvas.parentNode.hidden = true; }
    });
    // Legends and the figure's title as text, under the figure.
    var entries = [];
    if (fig && fig.title) { entries.push({title: fig.title}); }
    axes.forEach(function (a) { entries = entries.concat(a.legend); });
    if (fig) { entries = entries.concat(fig.legend); }
    var key = JSON.stringify(entries) + th.dark;
    if (key !== this.legendKey) {
      this.legendKey = key;
      this.legend.textContent = "";
      entries.forEach(function (e) {
        var li = document.createElement("li");
        if (e.title) {
          li.className = "il-sp-legend-title";
          li.textContent = e.title;
        } else {
          var swatch = document.createElement("span");
          swatch.className = "il-sp-swatch il-sp-swatch-" + e[1];
          swatch.style.setProperty("--il-swatch", colour(e[2], th) || th.fg);
          if (e[3]) { swatch.style.backgroundImage = hatchSwatch(e[3]); }
          swatch.setAttribute("aria-hidden", "true");
          li.appendChild(swatch);
          li.appendChild(document.createTextNode(e[0]));
        }
        self.legend.appendChild(li);
      });
    }
  };

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
