// The rpckit HTML report: reads the data element and draws the summary,
// the verdicts and the plots with uPlot. No network, no inline handlers.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("rpckit-data").textContent);
  var root = document.getElementById("report");
  var palette = ["#2f6fdf", "#e5731c", "#2a9d55", "#c33c54", "#8e55c9", "#6b7b8c"];

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    (children || []).forEach(function (c) {
      e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return e;
  }
  function fmt(v, digits) {
    if (v === null || v === undefined || isNaN(v)) return "-";
    return v.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
  }
  function msText(v) { return v >= 100 ? fmt(v, 0) + " ms" : v >= 10 ? fmt(v, 1) + " ms" : fmt(v, 2) + " ms"; }
  function capacityText(run) {
    var c = run.capacity;
    if (!c) return "-";
    if (!c.ok) return "below the first step";
    var last = c.step === run.steps.length - 1;
    return (last ? "≥ " : "") + fmt(c.rps, 0) + "/s" + (last ? " (every step)" : "");
  }

  function header() {
    var meta = "Generated " + data.generated.replace("T", " ").replace("Z", " UTC");
    if (data.slo) meta += " · SLO " + data.slo;
    root.appendChild(el("p", { "class": "meta" }, [meta]));
    if (data.settings && data.settings.length) {
      root.appendChild(el("ul", { "class": "settings" }, data.settings.map(function (s) { return el("li", {}, [s]); })));
    }
  }

  function summary() {
    var cols = ["run", "calls", "req/s", "errors", "p50", "p90", "p99", "p99.9", "max", "client CPU/call"];
    var hasCap = data.runs.some(function (r) { return r.capacity; });
    if (hasCap) cols.push("capacity");
    var head = el("tr", {}, cols.map(function (c) { return el("th", {}, [c]); }));
    var rows = data.runs.map(function (r, i) {
      var s = r.summary;
      var cells = [
        el("td", { "class": "name" }, [el("span", { "class": "swatch", style: "background:" + palette[i % palette.length] }), r.name]),
        el("td", {}, [fmt(s.calls, 0)]), el("td", {}, [fmt(s.rps, 1)]),
        el("td", {}, [fmt(s.errors, 0) + (s.errors ? " (" + fmt(100 * s.error_rate, 2) + "%)" : "")]),
        el("td", {}, [msText(s.p50_ms)]), el("td", {}, [msText(s.p90_ms)]), el("td", {}, [msText(s.p99_ms)]),
        el("td", {}, [msText(s.p999_ms)]), el("td", {}, [msText(s.max_ms)]),
        el("td", {}, [s.cpu_us_per_call ? fmt(s.cpu_us_per_call, 0) + " µs" : "-"])
      ];
      if (hasCap) cells.push(el("td", {}, [capacityText(r)]));
      return el("tr", {}, cells);
    });
    root.appendChild(el("h2", {}, ["Summary"]));
    root.appendChild(el("table", { "class": "summary" }, [el("thead", {}, [head]), el("tbody", {}, rows)]));
    root.appendChild(el("p", { "class": "note" }, ["Latency is measured from each call's intended start time (corrected for coordinated omission)."]));
  }

  function verdicts() {
    var any = data.runs.some(function (r) { return r.verdicts && r.verdicts.length; });
    if (!any) return;
    root.appendChild(el("h2", {}, ["SLO"]));
    var list = el("ul", { "class": "verdicts" }, []);
    data.runs.forEach(function (r) {
      (r.verdicts || []).forEach(function (v) {
        list.appendChild(el("li", { "class": v.pass ? "pass" : "fail" },
          [r.name + ": " + v.clause + " measured " + v.measured + " " + (v.pass ? "PASS" : "FAIL")]));
      });
      if (r.knee) list.appendChild(el("li", { "class": "knee" }, [r.name + ": knee at " + fmt(r.knee.rate, 0) + "/s (" + r.knee.reason + ")"]));
    });
    root.appendChild(list);
  }

  function sloBand(u) {
    if (!data.slo_latency_ms) return;
    var y = u.valToPos(data.slo_latency_ms, "y", true);
    if (y < u.bbox.top || y > u.bbox.top + u.bbox.height) return;
    var ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = "#c33c54";
    ctx.setLineDash([6, 4]);
    ctx.beginPath();
    ctx.moveTo(u.bbox.left, y);
    ctx.lineTo(u.bbox.left + u.bbox.width, y);
    ctx.stroke();
    ctx.restore();
  }

  function plot(title, note, opts, xs, series, extra) {
    var box = el("section", { "class": "plot" }, [el("h3", {}, [title])]);
    if (note) box.appendChild(el("p", { "class": "note" }, [note]));
    root.appendChild(box);
    var width = Math.max(320, Math.min(root.clientWidth || 900, 1100));
    var o = {
      width: width, height: 300,
      scales: Object.assign({ x: { time: false } }, opts.scales || {}),
      axes: opts.axes || [{}, {}],
      series: [{ label: opts.xLabel || "x" }].concat(series.map(function (s) {
        return Object.assign({ spanGaps: false, width: 2, points: { show: opts.points || false } }, s);
      })),
      hooks: extra || {},
      legend: { live: true }
    };
    var logY = o.scales.y && o.scales.y.distr === 3;
    var cols = series.map(function (s) {
      return logY ? s.data.map(function (v) { return v > 0 ? v : null; }) : s.data;
    });
    new uPlot(o, [xs].concat(cols), box);
  }

  function perRun(field, suffix, dash) {
    return data.runs.map(function (r, i) {
      return { label: r.name + (suffix || ""), stroke: palette[i % palette.length], dash: dash, data: r.series[field] };
    });
  }

  function msAxis(label) {
    return { label: label, values: function (u, vals) { return vals.map(function (v) { return v === null ? "" : msText(v); }); }, size: 70 };
  }

  function timePlots() {
    if (!data.seconds.length) return;
    var xAxis = { label: "seconds since measuring began" };
    plot("p99 latency over time", "Each point is the p99 of the calls that ended in that second; dashed: p50.",
      { xLabel: "s", axes: [xAxis, msAxis("latency")], scales: { y: { distr: 3 } } },
      data.seconds, perRun("p99_ms", " p99").concat(perRun("p50_ms", " p50", [4, 4])), { draw: [sloBand] });
    plot("Throughput over time", "Calls that ended per second; errors per second on the same axis, dashed.",
      { xLabel: "s", axes: [xAxis, { label: "calls/s", size: 70 }] },
      data.seconds, perRun("rps", " calls/s").concat(perRun("errors", " errors/s", [2, 4])));
  }

  function spectrumPlot() {
    var series = data.runs.map(function (r, i) {
      return { label: r.name, stroke: palette[i % palette.length], data: r.spectrum_ms };
    });
    var pctTicks = function (u, vals) {
      return vals.map(function (v) {
        var q = 100 * (1 - 1 / v);
        return q <= 0 ? "0%" : (q >= 99.99 ? fmt(q, 4) : q >= 99.9 ? fmt(q, 2) : q >= 99 ? fmt(q, 1) : fmt(q, 0)) + "%";
      });
    };
    plot("Latency by percentile", "HdrHistogram's percentile spectrum of the whole run (corrected latency).",
      { xLabel: "1/(1-q)", points: false, scales: { x: { time: false, distr: 3 }, y: { distr: 3 } },
        axes: [{ label: "percentile", values: pctTicks }, msAxis("latency")] },
      data.spectrum_x, series, { draw: [sloBand] });
  }

  function rampPlot() {
    var rates = data.step_rates || [];
    if (rates.length < 2) return;
    var series = [];
    data.runs.forEach(function (r, i) {
      var byRate = {};
      (r.steps || []).forEach(function (s) { byRate[s.offered_rps] = s; });
      var col = function (f) { return rates.map(function (x) { return byRate[x] ? byRate[x][f] : null; }); };
      series.push({ label: r.name + " p99", stroke: palette[i % palette.length], data: col("p99_ms") });
      series.push({ label: r.name + " p50", stroke: palette[i % palette.length], dash: [4, 4], data: col("p50_ms") });
    });
    plot("Latency against offered load", "One point per ramp step; the dashed red line is the SLO's latency limit.",
      { xLabel: "calls/s offered", points: true, scales: { y: { distr: 3 } },
        axes: [{ label: "calls/s offered" }, msAxis("latency")] },
      rates, series, { draw: [sloBand] });
    stepTable();
  }

  function stepTable() {
    root.appendChild(el("h2", {}, ["Ramp steps"]));
    var head = el("tr", {}, ["run", "offered/s", "achieved/s", "p50", "p99", "max", "errors", "client CPU/call", "SLO"]
      .map(function (c) { return el("th", {}, [c]); }));
    var rows = [];
    data.runs.forEach(function (r) {
      (r.steps || []).forEach(function (s, k) {
        var cap = r.capacity && r.capacity.ok && r.capacity.step === k;
        rows.push(el("tr", { "class": cap ? "capacity" : "" }, [
          el("td", { "class": "name" }, [r.name]), el("td", {}, [fmt(s.offered_rps, 0)]), el("td", {}, [fmt(s.rps, 1)]),
          el("td", {}, [msText(s.p50_ms)]), el("td", {}, [msText(s.p99_ms)]), el("td", {}, [msText(s.max_ms)]),
          el("td", {}, [fmt(s.errors, 0)]), el("td", {}, [s.cpu_us_per_call ? fmt(s.cpu_us_per_call, 0) + " µs" : "-"]),
          el("td", { "class": s.pass === false ? "fail" : s.pass ? "pass" : "" }, [s.pass === undefined ? "-" : s.pass ? "pass" : "fail"])
        ]));
      });
    });
    root.appendChild(el("table", { "class": "steps" }, [el("thead", {}, [head]), el("tbody", {}, rows)]));
  }

  header();
  summary();
  verdicts();
  rampPlot();
  timePlots();
  spectrumPlot();
})();
