// The Bench tab: a bounded load test of the tab's method, run by the
// server (load.Run) within its limits, with live progress, Stop, and then
// the summary, SLO verdicts and plots of report.WriteJSON's numbers (which
// can be downloaded as they are).
import { h, replace, download, status } from "./dom.js";
import { LivePlot, latencyOverTime, throughputOverTime, spectrum, rateVsLatency } from "./plots.js";

export function defaultBench() {
  return { mode: "concurrency", concurrency: 4, rate: 100, from: 50, to: 200, step: 50, stepS: 2, durationS: 5, slo: "" };
}

function num(v, d = 2) { return v === undefined || v === null || Number.isNaN(v) ? "-" : Number(v).toFixed(d); }
function pct(res, q) { return ((res.latency.percentiles || []).find((p) => p.percentile === q) || {}).ms; }

// benchView builds the tab's bench panel. ctx gives: tab, limits, socket,
// request() (the expanded request), method (info), conn, onCommand.
export function benchView(ctx) {
  const b = ctx.tab.bench || (ctx.tab.bench = defaultBench());
  const L = ctx.limits;
  const field = (label, key, attrs) => {
    const input = h("input", { type: "number", value: String(b[key]), name: key, "aria-label": label, ...attrs,
      on: { input: () => { b[key] = Number(input.value); ctx.save(); } } });
    return h("label", { data: { mode: attrs && attrs.mode || "" } }, label, input);
  };
  const mode = h("select", { "aria-label": "load mode", on: { change: () => { b.mode = mode.value; ctx.save(); showModes(); } } },
    [["concurrency", "closed loop (concurrency)"], ["rate", "open loop (rate)"], ["ramp", "rate ramp"]].map(([v, t]) => h("option", { value: v, text: t, selected: b.mode === v })));
  const web = ctx.conn && ctx.conn.settings && ctx.conn.settings.protocol && ctx.conn.settings.protocol !== "grpc";
  const engine = h("select", { "aria-label": "engine", on: { change: () => { b.engine = engine.value; ctx.save(); } } },
    [["lean", "lean (rpckit's HTTP/2 client)"], ["grpc", "grpc (grpc-go)"], ["connect", "connect (connect-go; gRPC-Web, Connect)"]].map(([v, t]) => h("option", { value: v, text: t, selected: (b.engine || (web ? "connect" : "lean")) === v })));
  const slo = h("input", { type: "text", value: b.slo, placeholder: "p99<200ms,errors<1%", "aria-label": "SLO", on: { input: () => { b.slo = slo.value; ctx.save(); } } });
  const settings = h("div", { class: "settings" },
    h("label", {}, "mode", mode),
    field(`concurrency (max ${L.maxConcurrency})`, "concurrency", { min: 1, max: L.maxConcurrency, mode: "concurrency" }),
    field(`rate, calls/s (max ${L.maxRate})`, "rate", { min: 1, max: L.maxRate, mode: "rate" }),
    field("duration, s", "durationS", { min: 1, max: L.maxDurationS, mode: "concurrency rate" }),
    field("ramp from, calls/s", "from", { min: 1, mode: "ramp" }), field("ramp to, calls/s", "to", { min: 1, mode: "ramp" }),
    field("ramp step, calls/s", "step", { min: 1, mode: "ramp" }), field("each step lasts, s", "stepS", { min: 1, mode: "ramp" }),
    h("label", {}, "SLO", slo), h("label", {}, "engine", engine));
  const showModes = () => {
    for (const l of settings.querySelectorAll("label[data-mode]")) l.hidden = l.dataset.mode !== "" && !l.dataset.mode.split(" ").includes(b.mode);
  };
  showModes();
  const start = h("button", { type: "button", class: "primary", text: "Start load test" });
  const stop = h("button", { type: "button", text: "Stop", disabled: true });
  const live = h("div", { class: "live", "data-testid": "bench-live" });
  const liveBox = h("div", {});
  const out = h("div", { "data-testid": "bench-result" });
  const limits = h("p", { class: "muted" }, `Limits of this server: at most ${L.maxDurationS} s, ${L.maxRate} calls/s, ${L.maxConcurrency} in flight; loopback targets only.`);
  const el = h("div", { class: "bench" }, limits, settings,
    h("div", { class: "row" }, start, stop, h("button", { type: "button", text: "Copy as rpckit bench", on: { click: () => ctx.onCommand("bench") } })),
    live, liveBox, out);

  let id = null;
  start.addEventListener("click", () => {
    const req = ctx.request();
    if (!req) return;
    id = ctx.socket.newID("bench");
    const body = ctx.method.clientStreaming ? wrapArray(req.body) : safeJSON(req.body);
    const frame = { t: "bench", id, bench: {
      conn: ctx.conn.id, method: req.method, body, metadata: req.metadata, timeoutMs: req.timeoutMs, slo: b.slo || undefined,
      concurrency: b.mode === "concurrency" ? b.concurrency : undefined, durationMs: b.mode === "ramp" ? undefined : b.durationS * 1000,
      rate: b.mode === "rate" ? b.rate : undefined, engine: b.engine || undefined,
      ramp: b.mode === "ramp" ? { from: b.from, to: b.to, step: b.step, stepMs: b.stepS * 1000 } : undefined,
    } };
    replace(live, h("span", {}, "starting…"));
    replace(out);
    replace(liveBox);
    const lp = new LivePlot(liveBox);
    start.disabled = true; stop.disabled = false;
    ctx.socket.on(id, (f) => {
      if (f.t === "progress") { showProgress(live, f.progress); lp.add(f.progress); }
      else if (f.t === "error") { replace(out, h("p", { class: "input-error", "data-testid": "bench-error" }, f.error)); status(f.error, true); }
      else if (f.t === "benchend" || f.t === "closed") {
        ctx.socket.off(id); id = null;
        start.disabled = false; stop.disabled = true;
        if (f.result) showResult(out, f.result);
      }
    });
    ctx.socket.send(frame);
  });
  stop.addEventListener("click", () => { if (id) ctx.socket.send({ t: "stop", id }); });
  return el;
}

function safeJSON(text) { try { return JSON.parse(text); } catch { return text; } }
function wrapArray(text) { const v = safeJSON(text); return Array.isArray(v) ? v : [v]; }

function showProgress(el, p) {
  const cell = (label, value, test) => h("span", { "data-testid": test }, label, h("b", {}, value));
  replace(el, p.warmup ? h("span", {}, `warming up ${num(p.elapsedS, 0)} s`) : [
    cell("elapsed", `${num(p.elapsedS, 0)} s`, "live-elapsed"), cell("calls", String(p.calls), "live-calls"),
    cell("rate", `${num(p.rate, 1)}/s`, "live-rate"), cell("p50", `${num(p.p50Ms)} ms`, "live-p50"),
    cell("p99", `${num(p.p99Ms)} ms`, "live-p99"), cell("errors", String(p.errors), "live-errors"),
  ]);
}

function showResult(el, end) {
  const res = JSON.parse(end.json);
  const row = (k, v, test) => h("tr", {}, h("th", {}, k), h("td", { "data-testid": test }, v));
  const table = h("table", { class: "summary", "data-testid": "bench-summary" },
    row("calls", String(res.calls), "sum-calls"), row("errors", String(res.errors), "sum-errors"),
    row("not sent", String(res.not_sent), "sum-not-sent"), row("calls/s", num(res.rps), "sum-rps"),
    row("p50", `${num(pct(res, 50), 3)} ms`, "sum-p50"), row("p99", `${num(pct(res, 99), 3)} ms`, "sum-p99"),
    row("max", `${num(res.latency.max_ms, 3)} ms`, "sum-max"), row("duration", `${num(res.duration_ms / 1000)} s`, "sum-duration"));
  const verdicts = (end.verdicts || []).map((v) => h("li", { class: "verdict " + (v.pass ? "pass" : "fail") }, `${v.pass ? "✓" : "✗"} ${v.clause} (measured ${num(v.measured, 3)})`));
  const plots = h("div", { class: "plots" }, latencyOverTime(res), throughputOverTime(res), spectrum(res), (res.steps || []).length ? rateVsLatency(res) : null);
  replace(el,
    h("h3", {}, end.stopped ? "Result (stopped early)" : "Result"), table,
    verdicts.length ? h("ul", { "data-testid": "verdicts" }, verdicts) : null,
    h("div", { class: "row" }, h("button", { type: "button", text: "Download JSON (as rpckit bench --format json)", on: { click: () => download("bench.json", end.json) } })),
    plots,
    h("details", {}, h("summary", {}, "Text report"), h("pre", { class: "json" }, end.text)),
    h("pre", { hidden: true, "data-testid": "bench-json" }, end.json));
}
