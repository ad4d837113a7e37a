// The response side of a request tab: status and code, time, headers,
// trailers, every message (a virtualised list for streams, so a long
// stream costs only the rows on screen) and google.rpc.Status details.
import { h, replace } from "./dom.js";

const ROW = 20; // px, as .vlist .msg in app.css

export function metadataTable(title, rows) {
  return h("div", { class: "section" }, h("h3", {}, title),
    rows && rows.length
      ? h("table", { class: "kv", "aria-label": title }, rows.map(([k, v]) => h("tr", {}, h("td", { class: "key" }, k), h("td", { class: "val" }, v))))
      : h("span", { class: "muted" }, "(none)"));
}

function pretty(v) {
  try { return JSON.stringify(typeof v === "string" ? JSON.parse(v) : v, null, 2); } catch { return String(v); }
}

export function statusBar(result, running) {
  const ok = result && result.codeName === "OK";
  const code = running ? "RUNNING" : result ? codeText(result) : "";
  return h("div", { class: "status", role: "status" },
    h("span", { class: "code " + (running ? "run" : ok ? "ok" : "bad"), "data-testid": "status-code" }, code),
    result && result.message ? h("span", { class: "message" }, result.message) : null,
    result && result.timeMs !== undefined ? h("span", { class: "muted", "data-testid": "time" }, `${result.timeMs.toFixed(1)} ms`) : null);
}

// codeText is the status code shown: a Thrift exception by its name.
function codeText(result) {
  return result.exception ? `${result.codeName} ${result.exception}` : `${result.codeName} (${result.code})`;
}

export function detailsSection(result) {
  if (!result || !result.details || !result.details.length) return null;
  return h("div", { class: "section", "data-testid": "details" }, h("h3", {}, "Error details (google.rpc.Status)"),
    result.details.map((d) => h("pre", { class: "json" }, pretty(d))));
}

// renderUnary shows the result of a unary call; a Thrift one has no
// headers or trailers, and its declared exception shows as the response.
export function renderUnary(el, result, thrift) {
  const title = result.exception ? `Exception ${result.exception}` : "Response";
  replace(el,
    statusBar(result),
    result.messages && result.messages.length
      ? h("div", { class: "section" }, h("h3", {}, title), h("pre", { class: "json", "data-testid": "response-json" }, pretty(result.messages[0])))
      : null,
    detailsSection(result),
    thrift ? null : metadataTable("Response headers", result.headers),
    thrift ? null : metadataTable("Response trailers", result.trailers));
}

// StreamView shows a call over the WebSocket as it goes.
export class StreamView {
  constructor(el) {
    this.el = el;
    this.items = [];
    this.sent = 0;
    this.result = null;
    this.header = null;
    this.follow = true;
    this.pending = false;
    this.build();
  }
  build() {
    this.statusEl = h("div", {}, statusBar(null, true));
    this.countEl = h("span", { "data-testid": "received" }, "0");
    this.sentEl = h("span", { "data-testid": "sent" }, "0");
    this.spacer = h("div", { class: "spacer-y" });
    this.rows = h("div", { class: "rows" });
    this.list = h("div", { class: "vlist", "data-testid": "messages", tabindex: "0", "aria-label": "Response messages" }, this.spacer, this.rows);
    this.list.addEventListener("scroll", () => {
      this.follow = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - ROW;
      this.schedule();
    });
    this.detail = h("pre", { class: "json", hidden: true });
    this.rows.addEventListener("click", (ev) => {
      const row = ev.target.closest(".msg");
      if (row) { this.detail.hidden = false; this.detail.textContent = pretty(this.items[Number(row.dataset.i)]); }
    });
    this.meta = h("div", {});
    replace(this.el, this.statusEl,
      h("div", { class: "section" }, h("div", { class: "row" }, "received ", this.countEl, " · sent ", this.sentEl)),
      h("div", { class: "section" }, this.list, this.detail), this.meta);
  }
  push(items) {
    for (const it of items) this.items.push(it);
    this.schedule();
  }
  setSent(n) { this.sent = n; this.schedule(); }
  setHeader(rows) { this.header = rows; this.renderMeta(); }
  end(result) {
    this.result = result;
    replace(this.statusEl, statusBar(result));
    this.renderMeta();
    this.schedule();
  }
  renderMeta() {
    replace(this.meta, detailsSection(this.result), metadataTable("Response headers", this.header || []),
      this.result ? metadataTable("Response trailers", this.result.trailers) : null);
  }
  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => { this.pending = false; this.render(); });
  }
  render() {
    const n = this.items.length;
    this.countEl.textContent = String(n);
    this.sentEl.textContent = String(this.sent);
    this.spacer.style.height = n * ROW + "px";
    if (this.follow) this.list.scrollTop = this.list.scrollHeight;
    const first = Math.max(0, Math.floor(this.list.scrollTop / ROW) - 5);
    const count = Math.ceil((this.list.clientHeight || 360) / ROW) + 10;
    const frag = document.createDocumentFragment();
    for (let i = first; i < Math.min(n, first + count); i++) {
      frag.appendChild(h("div", { class: "msg", data: { i: String(i) } }, h("span", { class: "n" }, `#${i + 1}`), JSON.stringify(this.items[i])));
    }
    this.rows.style.transform = `translateY(${first * ROW}px)`;
    this.rows.replaceChildren(frag);
  }
}
