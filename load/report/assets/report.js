// The plots of the rpckit HTML report, drawn with uPlot from the JSON in
// <script type="application/json" id="rpckit-data">. The tables are in the
// page already; this only fills the .chart elements. Colours come from the
// style sheet's custom properties, so plots follow the light or dark theme.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("rpckit-data").textContent);
  var charts = [];

  function cssVar(name) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  }
  function theme() {
    var runs = [];
    for (var i = 0; i < 6; i++) runs.push(cssVar("--c" + i));
    return { fg: cssVar("--fg"), muted: cssVar("--muted"), grid: cssVar("--grid"), fail: cssVar("--fail"), runs: runs };
  }
  function runColour(t, i) { return t.runs[i % t.runs.length]; }

  // Number formats.
  function trim(v) { return String(+v.toPrecision(3)); }
  function lat(v) {
    if (v === null || v === undefined) return "–";
    if (v >= 1000) return (v / 1000).toFixed(2) + " s";
    return (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)) + " ms";
  }
  function latTick(v) {
    if (v === null) return "";
    if (v >= 1000) return trim(v / 1000) + " s";
    if (v >= 1) return trim(v) + " ms";
    return trim(v * 1000) + " µs";
  }
  function rate(v) {
    if (v === null || v === undefined) return "–";
    return v >= 100 ? Math.round(v).toLocaleString("en-US") : trim(v);
  }
  function pct(v) { return v === null || v === undefined ? "–" : trim(v) + "%"; }
  // quantile labels x = 1/(1-q) as a percentile with as many nines as
  // it has: 90%, 99%, 99.9% ...
  function quantile(x) {
    var q = 100 * (1 - 1 / x);
    if (q <= 0) return "0%";
    return q.toFixed(Math.max(0, Math.ceil(Math.log10(x) - 1e-9) - 2)) + "%";
  }

  function positive(a) { return a.map(function (v) { return v > 0 ? v : null; }); }

  // A horizontal line at y on scale "y", if inside the plot.
  function hline(u, y, colour) {
    var py = u.valToPos(y, "y", true);
    if (!(py >= u.bbox.top && py <= u.bbox.top + u.bbox.height)) return;
    var ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.lineWidth = 1.5 * devicePixelRatio;
    ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
    ctx.beginPath();
    ctx.moveTo(u.bbox.left, py);
    ctx.lineTo(u.bbox.left + u.bbox.width, py);
    ctx.stroke();
    ctx.restore();
  }
  // A vertical line at x, if inside the plot.
  function vline(u, x, colour, dash) {
    var px = u.valToPos(x, "x", true);
    if (!(px >= u.bbox.left && px <= u.bbox.left + u.bbox.width)) return;
    var ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.lineWidth = devicePixelRatio;
    if (dash) ctx.setLineDash(dash.map(function (d) { return d * devicePixelRatio; }));
    ctx.beginPath();
    ctx.moveTo(px, u.bbox.top);
    ctx.lineTo(px, u.bbox.top + u.bbox.height);
    ctx.stroke();
    ctx.restore();
  }
  // A marker at (x, y): a filled diamond or an open ring.
  function marker(u, x, y, colour, ring) {
    var px = u.valToPos(x, "x", true), py = u.valToPos(y, "y", true), r = 6 * devicePixelRatio;
    var ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = colour;
    ctx.fillStyle = colour;
    ctx.lineWidth = 2 * devicePixelRatio;
    ctx.beginPath();
    if (ring) {
      ctx.arc(px, py, r + 2 * devicePixelRatio, 0, 2 * Math.PI);
      ctx.stroke();
    } else {
      ctx.moveTo(px, py - r); ctx.lineTo(px + r, py); ctx.lineTo(px, py + r); ctx.lineTo(px - r, py);
      ctx.closePath();
      ctx.fill();
    }
    ctx.restore();
  }
  function sloLine(t) {
    return function (u) { if (data.slo_latency_ms) hline(u, data.slo_latency_ms, t.fail); };
  }

  // chart draws one uPlot into the element id, if the page has it.
  // cfg: x, xLabel, xFmt, xLog, xSplits, xIncrs, y {label, fmt (ticks),
  // value (legend), log, range},
  // right {label, fmt} (the scale "r"), series [{label, colour, dash,
  // width, points, data, right, fmt}], draw (a hook), sync, height.
  function chart(t, id, cfg) {
    var el = document.getElementById(id);
    if (!el) return;
    var axis = function (label, fmt, side) {
      var a = {
        label: label, stroke: t.fg, font: "11px system-ui, sans-serif", labelFont: "12px system-ui, sans-serif",
        grid: { stroke: t.grid, width: 1 }, ticks: { stroke: t.grid, width: 1 }, size: 56, gap: 4
      };
      if (fmt) a.values = function (u, vals) { return vals.map(fmt); };
      if (side) { a.side = side; a.scale = "r"; a.grid = { show: false }; }
      return a;
    };
    var x = axis(cfg.xLabel, cfg.xFmt);
    x.size = 42;
    if (cfg.xSplits) x.splits = cfg.xSplits;
    if (cfg.xIncrs) x.incrs = cfg.xIncrs;
    var axes = [x, axis(cfg.y.label, cfg.y.fmt)];
    var scales = { x: { time: false }, y: {} };
    if (cfg.xLog) scales.x.distr = 3;
    if (cfg.y.log) scales.y.distr = 3;
    if (cfg.y.range) scales.y.range = cfg.y.range;
    if (cfg.right) {
      axes.push(axis(cfg.right.label, cfg.right.fmt, 1));
      scales.r = { range: function (u, lo, hi) { return [0, Math.max(hi, 1) * 1.1]; } };
    }
    var series = [{ label: cfg.xLabel, value: function (u, v) { return v === null ? "–" : cfg.xFmt ? cfg.xFmt(v) : v; } }];
    var cols = [cfg.x];
    cfg.series.forEach(function (s) {
      var fmt = s.fmt || (s.right ? cfg.right.fmt : cfg.y.value || cfg.y.fmt) || trim;
      series.push({
        label: s.label, stroke: s.colour, width: s.width || 1.5, dash: s.dash, scale: s.right ? "r" : "y",
        spanGaps: !!s.spanGaps, points: { show: !!s.points, size: 6, fill: s.colour },
        value: function (u, v) { return v === null || v === undefined ? "–" : fmt(v); }
      });
      cols.push(cfg.y.log && !s.right ? positive(s.data) : s.data);
    });
    var height = cfg.height || 260;
    var opts = {
      width: Math.max(el.clientWidth, 300), height: height, scales: scales, axes: axes, series: series,
      cursor: cfg.sync ? { sync: { key: cfg.sync } } : {}, legend: { live: true },
      hooks: cfg.draw ? { draw: [cfg.draw] } : {}
    };
    charts.push({ el: el, height: height, plot: new uPlot(opts, cols, el) });
  }

  function anySteps() { return (data.step_rates || []).length > 1; }

  // byRate is a run's step field at each of the ascending rates.
  function byRate(r, rates, field, scale) {
    var m = {};
    (r.steps || []).forEach(function (s) { m[s.offered_rps] = s; });
    return rates.map(function (x) { return m[x] ? m[x][field] * (scale || 1) : null; });
  }
  function stepAt(r, k) { return r.steps && r.steps[k]; }

  function loadPlots(t) {
    if (!anySteps()) return;
    var rates = data.step_rates.slice().sort(function (a, b) { return a - b; });
    var series = [];
    data.runs.forEach(function (r, i) {
      var c = runColour(t, i);
      series.push({ label: r.name + " p99", colour: c, width: 2, points: true, spanGaps: true, data: byRate(r, rates, "p99_ms") });
      series.push({ label: "p50", colour: c, dash: [5, 4], points: true, spanGaps: true, data: byRate(r, rates, "p50_ms") });
    });
    chart(t, "plot-load", {
      x: rates, xLabel: "offered calls/s", xFmt: rate, y: { label: "latency", fmt: latTick, value: lat, log: true }, series: series,
      draw: function (u) {
        sloLine(t)(u);
        data.runs.forEach(function (r, i) {
          var c = runColour(t, i), cap = r.capacity, knee = r.knee;
          if (cap && cap.ok && stepAt(r, cap.step)) {
            vline(u, cap.rps, c, [2, 3]);
            marker(u, cap.rps, Math.max(stepAt(r, cap.step).p99_ms, 1e-3), c, false);
          }
          if (knee && stepAt(r, knee.step)) marker(u, knee.rate, Math.max(stepAt(r, knee.step).p99_ms, 1e-3), c, true);
        });
      }
    });
    var errors = data.runs.some(function (r) { return (r.steps || []).some(function (s) { return s.errors > 0; }); });
    var rs = [{ label: "offered", colour: t.muted, dash: [4, 4], width: 1, data: rates }];
    data.runs.forEach(function (r, i) {
      rs.push({ label: r.name, colour: runColour(t, i), width: 2, points: true, spanGaps: true, data: byRate(r, rates, "throughput_rps") });
    });
    if (errors) {
      data.runs.forEach(function (r, i) {
        rs.push({ label: "errors", colour: runColour(t, i), dash: [2, 3], right: true, points: true, spanGaps: true, data: byRate(r, rates, "error_rate", 100) });
      });
    }
    chart(t, "plot-load-rate", {
      x: rates, xLabel: "offered calls/s", xFmt: rate, y: { label: "calls/s done", fmt: rate, range: function (u, lo, hi) { return [0, hi * 1.05]; } },
      right: errors ? { label: "errors", fmt: pct } : null, series: rs,
      draw: function (u) {
        data.runs.forEach(function (r, i) {
          if (r.capacity && r.capacity.ok) vline(u, r.capacity.rps, runColour(t, i), [2, 3]);
        });
      }
    });
  }

  // latencyRange is the log range shared by the per-run time plots, so
  // that they compare at a glance.
  function latencyRange() {
    var lo = Infinity, hi = 0;
    data.runs.forEach(function (r) {
      ["p50_ms", "p90_ms", "p99_ms", "max_ms"].forEach(function (f) {
        r.series[f].forEach(function (v) { if (v > 0) { lo = Math.min(lo, v); hi = Math.max(hi, v); } });
      });
    });
    if (!(hi > 0)) return null;
    return [Math.pow(10, Math.floor(Math.log10(lo))), Math.pow(10, Math.ceil(Math.log10(hi)))];
  }

  // Tick steps of the time axes: whole seconds.
  var seconds = [1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];

  function stepLines(t, r) {
    return function (u) {
      (r.summary.step_starts_s || []).forEach(function (s, k) { if (k > 0) vline(u, s, t.grid, [3, 3]); });
      sloLine(t)(u);
    };
  }

  function timePlots(t) {
    if (!data.seconds.length) return;
    var range = latencyRange();
    data.runs.forEach(function (r, i) {
      var c = runColour(t, i);
      chart(t, "plot-time-" + i, {
        x: data.seconds, xLabel: "seconds", xIncrs: seconds, y: { label: "latency", fmt: latTick, value: lat, log: true, range: range ? function () { return range; } : null },
        series: [
          { label: "max", colour: t.muted, width: 1, data: r.series.max_ms },
          { label: "p99", colour: c, width: 2, data: r.series.p99_ms },
          { label: "p90", colour: c, width: 1.5, dash: [6, 3], data: r.series.p90_ms },
          { label: "p50", colour: c, width: 1.5, dash: [2, 3], data: r.series.p50_ms }
        ],
        draw: stepLines(t, r), sync: "time", height: 200
      });
    });
    var has = function (a) { return a.some(function (v) { return v > 0; }); };
    var errors = data.runs.some(function (r) { return has(r.series.errors) || has(r.series.not_sent); });
    var offered = data.runs.map(function (r) { return r.series.offered_rps; });
    var sameOffered = offered.every(function (o) { return JSON.stringify(o) === JSON.stringify(offered[0]); });
    var series = [];
    if (sameOffered && offered[0].some(function (v) { return v !== null; })) {
      series.push({ label: "offered", colour: t.muted, width: 1, dash: [2, 3], data: offered[0] });
    }
    data.runs.forEach(function (r, i) {
      var c = runColour(t, i);
      series.push({ label: r.name, colour: c, width: 2, data: r.series.rps });
      if (!sameOffered && offered[i].some(function (v) { return v !== null; })) {
        series.push({ label: "offered", colour: c, width: 1, dash: [2, 3], data: offered[i] });
      }
      if (has(r.series.errors)) series.push({ label: "errors", colour: c, dash: [6, 3], right: true, data: r.series.errors });
      if (has(r.series.not_sent)) series.push({ label: "not sent", colour: c, dash: [2, 2], width: 1, right: true, data: r.series.not_sent });
    });
    chart(t, "plot-rate", {
      x: data.seconds, xLabel: "seconds", xIncrs: seconds, y: { label: "calls/s", fmt: rate, range: function (u, lo, hi) { return [0, Math.max(hi, 1) * 1.05]; } },
      right: errors ? { label: "errors/s", fmt: rate } : null, series: series, sync: "time"
    });
  }

  // spectrumPlot draws each run's latency by percentile, up to the
  // finest percentile a run has data for.
  function spectrumPlot(t) {
    var n = 0;
    data.runs.forEach(function (r) {
      r.spectrum_ms.forEach(function (v, k) { if (v !== null) n = Math.max(n, k + 1); });
    });
    if (n < 2) return;
    var xs = data.spectrum_x.slice(0, n), top = xs[n - 1];
    chart(t, "plot-spectrum", {
      x: xs, xLabel: "percentile", xFmt: quantile, xLog: true,
      xSplits: function () {
        var out = [];
        for (var v = 1; v <= top * 1.0001; v *= 10) out.push(v);
        return out;
      },
      y: { label: "latency", fmt: latTick, value: lat, log: true },
      series: data.runs.map(function (r, i) { return { label: r.name, colour: runColour(t, i), width: 2, data: r.spectrum_ms.slice(0, n) }; }),
      draw: sloLine(t)
    });
  }

  function render() {
    charts.forEach(function (c) { c.plot.destroy(); });
    charts = [];
    var t = theme();
    loadPlots(t);
    timePlots(t);
    spectrumPlot(t);
  }

  var resizing = 0;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () {
      charts.forEach(function (c) { c.plot.setSize({ width: Math.max(c.el.clientWidth, 300), height: c.height }); });
    }, 100);
  });
  if (window.matchMedia) {
    var dark = window.matchMedia("(prefers-color-scheme: dark)");
    if (dark.addEventListener) dark.addEventListener("change", render);
  }
  render();
})();
