// The bench plots, drawn with uPlot (vendored, a classic script that sets
// window.uPlot) from report.WriteJSON's numbers: latency over time,
// throughput over time, the percentile spectrum, and for ramps latency
// against the offered rate.
import { h } from "./dom.js";

const COLORS = { p50: "#2f6fdf", p90: "#2a9d55", p99: "#e5731c", max: "#c33c54", rps: "#8e55c9" };

function plot(title, opts, data, width) {
  const box = h("div", { class: "plot", "data-testid": "plot" }, h("h4", {}, title));
  const U = window.uPlot;
  if (!U) { box.appendChild(h("p", { class: "muted" }, "uPlot did not load")); return box; }
  const axisStroke = getComputedStyle(document.documentElement).getPropertyValue("--fg").trim() || "#333";
  const grid = getComputedStyle(document.documentElement).getPropertyValue("--line").trim() || "#ddd";
  opts.axes = (opts.axes || [{}, {}]).map((a) => ({ stroke: axisStroke, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid }, ...a }));
  // The box keeps its plot, whose data the browser tests compare with the
  // JSON the plot was drawn from.
  box.plot = new U({ width: width || 460, height: 220, ...opts }, data, box);
  return box;
}

function line(label, color) { return { label, stroke: color, width: 1.5, spanGaps: true }; }

export function latencyOverTime(res) {
  const s = res.series || [];
  const x = s.map((p) => p.at_ms / 1000);
  return plot("Latency over time (ms)", {
    scales: { x: { time: false } },
    series: [{ label: "s" }, line("p50", COLORS.p50), line("p90", COLORS.p90), line("p99", COLORS.p99), line("max", COLORS.max)],
    axes: [{ label: "seconds" }, { label: "ms" }],
  }, [x, s.map((p) => p.p50_ms), s.map((p) => p.p90_ms), s.map((p) => p.p99_ms), s.map((p) => p.max_ms)]);
}

export function throughputOverTime(res) {
  const s = res.series || [];
  return plot("Throughput over time (calls/s)", {
    scales: { x: { time: false } },
    series: [{ label: "s" }, line("calls/s", COLORS.rps), line("errors", COLORS.max)],
    axes: [{ label: "seconds" }, { label: "calls/s" }],
  }, [s.map((p) => p.at_ms / 1000), s.map((p) => p.rps), s.map((p) => p.errors)]);
}

// spectrum puts each percentile at 1/(1-q) on a log axis, as the HTML
// report does; 100% (the max) has no place on it and is left out.
export function spectrum(res) {
  const ps = ((res.latency && res.latency.percentiles) || []).filter((p) => p.percentile < 100);
  return plot("Latency by percentile (ms)", {
    scales: { x: { time: false, distr: 3 } },
    series: [{ label: "percentile", value: (u, v) => v == null ? "-" : (100 - 100 / v).toFixed(3) + "%" }, line("latency", COLORS.p99)],
    axes: [{ label: "percentile", values: (u, vals) => vals.map((v) => (100 - 100 / v).toPrecision(4) + "%") }, { label: "ms" }],
  }, [ps.map((p) => 1 / (1 - p.percentile / 100)), ps.map((p) => p.ms)]);
}

export function rateVsLatency(res) {
  const steps = res.steps || [];
  const p = (st, q) => ((st.latency.percentiles || []).find((x) => x.percentile === q) || {}).ms;
  return plot("Latency against offered rate (ms)", {
    scales: { x: { time: false } },
    series: [{ label: "offered/s" }, line("p50", COLORS.p50), line("p99", COLORS.p99), line("achieved/s ÷ 10", COLORS.rps)],
    axes: [{ label: "offered calls/s" }, { label: "ms" }],
  }, [steps.map((s) => s.offered_rps), steps.map((s) => p(s, 50)), steps.map((s) => p(s, 99)), steps.map((s) => s.rps / 10)]);
}

// LivePlot follows p50 and p99 second by second while a run goes.
export class LivePlot {
  constructor(parent) {
    this.data = [[], [], []];
    this.box = h("div", {});
    parent.appendChild(this.box);
    const U = window.uPlot;
    if (!U) return;
    this.u = new U({ width: 460, height: 160, scales: { x: { time: false } },
      series: [{ label: "s" }, line("p50 (last second)", COLORS.p50), line("p99 (so far)", COLORS.p99)],
      axes: [{ label: "seconds" }, { label: "ms" }] }, this.data, this.box);
  }
  add(p) {
    if (p.warmup) return;
    this.data[0].push(p.elapsedS); this.data[1].push(p.p50Ms); this.data[2].push(p.p99Ms);
    if (this.u) this.u.setData(this.data);
  }
}
