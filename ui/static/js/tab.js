// A request tab: the raw JSON editor (the source of truth) or the form,
// metadata and deadline on the left; the response on the right; the Bench
// view; copy as commands and paste to restore.
import { h, replace, status } from "./dom.js";
import { get, post, APIError } from "./api.js";
import { makeEditor } from "./editor.js";
import { buildForm } from "./form.js";
import { renderUnary, StreamView, statusBar } from "./response.js";
import { callCommand, benchCommand, grpcurlCommand, goDuration, parseGoDuration, messagesOf } from "./commands.js";
import { expand, store } from "./store.js";
import { benchView, defaultBench } from "./bench.js";

export class TabView {
  constructor(tab, app) {
    this.tab = tab;
    this.app = app;
    this.stream = null; // the open call: {id, view}
    this.build();
    this.ready = this.load();
  }

  get info() { return this.app.methodInfo(this.tab.target, this.tab.method) || {}; }
  get conn() { return this.app.connFor(this.tab.target); }
  // A Thrift tab makes unary calls from the JSON editor only: no form,
  // bench or copied commands; its metadata rows are THeader info headers.
  get thrift() { const c = this.conn; return c ? c.thrift : !!this.tab.thrift; }
  // headersOff: a Thrift target whose transport carries no info headers.
  get headersOff() {
    const c = this.conn;
    return this.thrift && !(c && c.settings.thrift && c.settings.thrift.transport === "header");
  }

  build() {
    const t = this.tab;
    this.sendBtn = h("button", { type: "button", class: "primary", "data-testid": "send", on: { click: () => this.send() } });
    this.halfBtn = h("button", { type: "button", text: "Half-close", "data-testid": "half-close", on: { click: () => this.halfClose() } });
    this.cancelBtn = h("button", { type: "button", text: "Cancel", "data-testid": "cancel", on: { click: () => this.cancel() } });
    this.copyMenu = this.buildCopyMenu();
    this.pasteBox = h("div", { class: "section", hidden: true });
    this.commandBox = h("div", { class: "section", hidden: true });
    this.viewBtns = ["json", "form", "bench"].map((v) => h("button", { type: "button", text: v === "json" ? "JSON" : v === "form" ? "Form" : "Bench",
      "data-testid": "view-" + v, class: t.view === v ? "on" : "", on: { click: () => this.setView(v) } }));
    this.editorEl = h("div", { "data-testid": "editor", "aria-label": "Request JSON" });
    this.jar = makeEditor(this.editorEl, t.body, (code) => { t.body = code; this.app.saveSoon(); this.checkSoon(); });
    this.editorEl.addEventListener("keydown", (ev) => { if (ev.key === "Escape") this.app.focusSearch(); });
    this.benchEl = h("div", {});
    this.errorEl = h("div", { class: "input-error", "data-testid": "input-error", role: "alert" });
    this.deadline = h("input", { type: "text", value: goDuration(t.timeoutMs), "aria-label": "deadline", "data-testid": "deadline",
      on: { change: () => { try { t.timeoutMs = parseGoDuration(this.deadline.value.trim()); this.deadline.classList.remove("bad"); this.app.saveSoon(); } catch (e) { status(e.message, true); } } } });
    this.metaEl = h("div", {});
    this.describeEl = h("pre", { class: "json" });
    this.responseEl = h("div", { "data-testid": "response" }, h("p", { class: "empty" }, "Send the request (Ctrl+Enter) to see the response."));
    this.saveName = h("input", { type: "text", placeholder: "collection", value: "default", "aria-label": "collection name" });
    const head = h("div", { class: "pane-head" },
      h("h2", {}, t.method), h("span", { class: "muted" }, "@ " + t.target), h("span", { class: "spacer" }),
      this.sendBtn, this.halfBtn, this.cancelBtn);
    const tools = h("div", { class: "pane-head" },
      this.copyMenu,
      h("button", { type: "button", text: "Paste command", "data-testid": "paste", on: { click: () => this.showPaste() } }),
      h("button", { type: "button", text: "Fill template", "data-testid": "template", on: { click: () => this.fillTemplate() } }),
      h("span", { class: "row" }, this.saveName, h("button", { type: "button", text: "Save", "data-testid": "save", on: { click: () => this.save() } })));
    this.reqBody = h("div", { class: "section" });
    this.left = h("div", { class: "pane" }, head, tools, this.commandBox, this.pasteBox,
      h("div", { class: "subtabs", role: "tablist" }, this.viewBtns),
      this.reqBody,
      h("div", { class: "section", "data-req": "meta" }, h("h3", {}, "Metadata"), this.metaEl),
      h("div", { class: "section deadline row", "data-req": "deadline" }, h("label", {}, "Deadline ", this.deadline), h("span", { class: "muted" }, "sent to the server as grpc-timeout")),
      h("details", { class: "section" }, h("summary", {}, "Schema"), this.describeEl));
    this.el = h("div", { class: "request" }, this.left, h("div", { class: "pane" }, this.responseEl));
    if (this.thrift) this.thriftLayout();
    this.renderMetadata();
    this.renderControls();
    this.renderView();
  }

  thriftLayout() {
    if (this.tab.view !== "json") this.tab.view = "json";
    for (const b of this.viewBtns) b.hidden = b.dataset.testid !== "view-json";
    this.copyMenu.hidden = true;
    this.left.querySelector("[data-req=meta] h3").textContent = "Info headers";
    const hint = this.left.querySelector("[data-req=deadline] .muted");
    if (hint) hint.textContent = "the call's deadline";
    const schema = this.describeEl.parentElement;
    schema.open = true;
    schema.querySelector("summary").textContent = "Function";
  }

  async load() {
    await this.connectionChanged();
  }

  // connectionChanged refreshes what depends on the server's schema.
  async connectionChanged() {
    const c = this.conn;
    if (!c) return;
    try {
      const d = await get("describe", { conn: c.id, symbol: this.tab.method });
      this.describeEl.textContent = d.text;
      this.template = d.template ? JSON.stringify(d.template, null, 2) : "{}";
      if (!this.tab.body.trim()) this.setBody(this.info.clientStreaming ? this.template : this.template);
    } catch (e) {
      this.describeEl.textContent = e.message;
    }
    this.renderControls();
    if (this.thrift) this.renderMetadata(); // the transport may have changed
    if (this.tab.view === "form") this.renderView();
  }

  focusEditor() {
    if (this.tab.view === "json") this.editorEl.focus();
  }

  setBody(text) {
    this.tab.body = text;
    this.jar.updateCode(text);
    this.app.saveSoon();
    this.checkSoon();
  }

  fillTemplate() { if (this.template) this.setBody(this.template); }

  setView(v) {
    this.tab.view = v;
    this.app.saveSoon();
    this.viewBtns.forEach((b) => b.classList.toggle("on", b.dataset.testid === "view-" + v));
    this.renderView();
  }

  async renderView() {
    const v = this.tab.view;
    if (v === "json") { replace(this.reqBody, this.editorEl, this.errorEl); return; }
    if (v === "bench") {
      replace(this.reqBody, this.benchPanel());
      return;
    }
    replace(this.reqBody, h("p", { class: "muted" }, "loading the schema…"));
    let schema;
    try { schema = await this.app.schemaFor(this.tab.target, this.info.input); }
    catch (e) { replace(this.reqBody, h("p", { class: "input-error" }, e.message)); return; }
    let value;
    try { value = JSON.parse(this.tab.body || "{}"); }
    catch (e) { replace(this.reqBody, h("p", { class: "input-error" }, "The JSON does not parse, so the form cannot show it: " + e.message), this.editorEl); return; }
    if (Array.isArray(value)) value = value[0] || {};
    const form = buildForm(schema, value, (val) => {
      this.tab.body = JSON.stringify(val, null, 2);
      this.jar.updateCode(this.tab.body);
      this.app.saveSoon();
      this.checkSoon();
    });
    replace(this.reqBody, h("div", { "data-testid": "form" }, form), this.errorEl);
  }

  benchPanel() {
    if (!this.benchUI) {
      // The panel may be built before the target is connected (a tab
      // restored in this view): it asks for the method and connection
      // when it starts a run.
      const view = this;
      this.benchUI = benchView({
        tab: this.tab, limits: this.app.info.bench, socket: this.app.socket,
        get method() { return view.info; }, get conn() { return view.conn || {}; },
        request: () => this.request(), save: () => this.app.saveSoon(), onCommand: (k) => this.copyAs(k),
      });
    }
    return h("div", {}, this.editorEl, this.errorEl, this.benchUI);
  }

  // --- metadata ---

  renderMetadata() {
    const rows = this.tab.metadata;
    const off = this.headersOff;
    const table = h("table", { class: "kv", "aria-label": "Request metadata" },
      rows.map((r, i) => h("tr", {},
        h("td", { class: "key" }, h("input", { type: "text", value: r[0], placeholder: "key", "aria-label": `metadata key ${i + 1}`, disabled: off, on: { input: (ev) => { r[0] = ev.target.value; this.app.saveSoon(); } } })),
        h("td", {}, h("input", { type: "text", value: r[1], placeholder: "value ({{var}} allowed)", "aria-label": `metadata value ${i + 1}`, disabled: off, on: { input: (ev) => { r[1] = ev.target.value; this.app.saveSoon(); } } })),
        h("td", {}, h("button", { type: "button", text: "−", "aria-label": "remove metadata row", disabled: off, on: { click: () => { rows.splice(i, 1); if (!rows.length) rows.push(["", ""]); this.renderMetadata(); this.app.saveSoon(); } } })))));
    replace(this.metaEl, table, h("button", { type: "button", text: "+ row", "data-testid": "add-metadata", disabled: off, on: { click: () => { rows.push(["", ""]); this.renderMetadata(); } } }),
      this.thrift ? h("p", { class: "muted", "data-testid": "header-note" }, off
        ? "Info headers need the header transport: reconnect with transport header."
        : "Sent as THeader info headers (header transport).") : null);
  }

  // --- sending ---

  renderControls() {
    const m = this.info;
    const streaming = m.clientStreaming || m.serverStreaming;
    const open = !!this.stream;
    this.sendBtn.textContent = m.clientStreaming ? (open ? "Send message" : "Open stream") : "Send";
    this.sendBtn.disabled = !m.clientStreaming && open;
    this.halfBtn.hidden = !m.clientStreaming;
    this.halfBtn.disabled = !open;
    this.cancelBtn.hidden = !streaming;
    this.cancelBtn.disabled = !open;
  }

  // request is the tab's request with the environment's {{variables}}
  // filled in; null (and a message) when the target is not connected.
  request() {
    const vars = this.app.env();
    const missing = new Set();
    const body = expand(this.tab.body || "{}", vars, missing);
    const metadata = this.headersOff ? [] : this.tab.metadata.filter((r) => r[0].trim()).map(([k, v]) => [expand(k, vars, missing).trim(), expand(v, vars, missing)]);
    if (missing.size) status(`unknown variables: ${[...missing].join(", ")}`, true);
    if (!this.conn) { status(`not connected to ${this.tab.target}: connect or reconnect`, true); return null; }
    return { target: this.tab.target, method: this.tab.method, body, metadata, timeoutMs: this.tab.timeoutMs };
  }

  send() {
    const m = this.info;
    if (m.clientStreaming && this.stream) return this.sendMessage();
    if (m.clientStreaming || m.serverStreaming) return this.openStream();
    return this.unary();
  }

  async unary() {
    const req = this.request();
    if (!req) return;
    replace(this.responseEl, statusBar(null, true));
    try {
      const result = await post("call", { conn: this.conn.id, method: req.method, body: parseOr(req.body), metadata: req.metadata, timeoutMs: req.timeoutMs });
      renderUnary(this.responseEl, result, this.thrift);
      this.record(req, result);
    } catch (e) {
      this.showError(e);
      replace(this.responseEl, h("p", { class: "input-error" }, e.message));
    }
  }

  openStream() {
    const req = this.request();
    if (!req) return;
    const m = this.info;
    const id = this.app.socket.newID("s");
    const view = new StreamView(this.responseEl);
    this.stream = { id, view, req };
    this.app.socket.on(id, (f) => this.onFrame(f));
    this.app.socket.send({ t: "open", id, conn: this.conn.id, method: req.method, metadata: req.metadata, timeoutMs: req.timeoutMs,
      body: m.clientStreaming ? undefined : parseOr(req.body) });
    this.renderControls();
  }

  sendMessage() {
    const req = this.request();
    if (!req || !this.stream) return;
    for (const msg of messagesOf(req.body, true)) this.app.socket.send({ t: "send", id: this.stream.id, body: parseOr(msg) });
  }

  halfClose() { if (this.stream) this.app.socket.send({ t: "half", id: this.stream.id }); }
  cancel() { if (this.stream) this.app.socket.send({ t: "cancel", id: this.stream.id }); }

  onFrame(f) {
    const s = this.stream;
    if (!s || f.id !== s.id) return;
    switch (f.t) {
      case "msgs":
        s.view.push(f.items);
        this.app.socket.send({ t: "ack", id: s.id, n: f.items.length });
        break;
      case "header": s.view.setHeader(f.rows); break;
      case "sent": s.view.setSent(f.n); break;
      case "error": this.showError(new APIError(f.error, f.path)); break;
      case "end": case "closed": {
        const result = f.result || { code: 14, codeName: "UNAVAILABLE", message: "the page's connection closed" };
        s.view.end(result);
        this.app.socket.off(s.id);
        this.stream = null;
        this.record(s.req, result);
        this.renderControls();
        break;
      }
    }
  }

  record(req, result) {
    store.addHistory({ at: new Date().toISOString(), req: { ...req, body: this.tab.body, metadata: this.tab.metadata.filter((r) => r[0]) },
      code: result.codeName, timeMs: result.timeMs, received: result.received });
  }

  // --- input checks ---

  checkSoon() {
    clearTimeout(this.checkTimer);
    this.checkTimer = setTimeout(() => this.check(), 250);
  }

  async check() {
    const c = this.conn;
    if (!c) return;
    const vars = this.app.env();
    let body = expand(this.tab.body || "{}", vars);
    let parsed;
    try { parsed = JSON.parse(body); } catch (e) { this.showError(new APIError("JSON: " + e.message)); return; }
    if (this.info.clientStreaming && Array.isArray(parsed)) parsed = parsed[0] || {};
    try {
      await post("check", { conn: c.id, method: this.tab.method, body: parsed });
      this.showError(null);
    } catch (e) { this.showError(e); }
  }

  showError(e) {
    for (const el of this.reqBody.querySelectorAll(".field.bad")) el.classList.remove("bad");
    if (!e) { this.errorEl.textContent = ""; return; }
    this.errorEl.textContent = e.path ? `at ${e.path}: ${e.message}` : e.message;
    if (e.path) {
      const f = this.reqBody.querySelector(`.field[data-path="${CSS.escape("$." + e.path)}"]`);
      if (f) f.classList.add("bad");
    }
  }

  // --- commands ---

  buildCopyMenu() {
    const items = h("div", { class: "menu-items", hidden: true },
      [["call", "rpckit call"], ["bench", "rpckit bench"], ["grpcurl", "grpcurl"]].map(([k, label]) =>
        h("button", { type: "button", text: label, "data-testid": "copy-" + k, on: { click: () => { items.hidden = true; this.copyAs(k); } } })));
    const btn = h("button", { type: "button", text: "Copy as ▾", "data-testid": "copy-as", "aria-haspopup": "menu", on: { click: () => { items.hidden = !items.hidden; } } });
    return h("span", { class: "menu" }, btn, items);
  }

  copyAs(kind) {
    const req = this.request();
    if (!req) return;
    const c = this.conn.settings;
    const cs = this.info.clientStreaming;
    const text = kind === "call" ? callCommand(req, c, cs) : kind === "grpcurl" ? grpcurlCommand(req, c, cs)
      : benchCommand(req, c, cs, this.tab.bench || defaultBench());
    const ta = h("textarea", { class: "command", readonly: true, "data-testid": "command", value: text });
    replace(this.commandBox, ta, h("button", { type: "button", text: "Close", on: { click: () => { this.commandBox.hidden = true; } } }));
    this.commandBox.hidden = false;
    ta.select();
    if (navigator.clipboard) navigator.clipboard.writeText(text).then(() => status("copied to the clipboard"), () => status("select and copy the command"));
  }

  showPaste() {
    const ta = h("textarea", { class: "command", "data-testid": "paste-input", placeholder: "paste an rpckit call, rpckit bench or grpcurl command" });
    const go = h("button", { type: "button", class: "primary", text: "Restore", "data-testid": "restore", on: { click: async () => {
      try { await this.app.restoreCommand(ta.value); this.pasteBox.hidden = true; } catch (e) { status(e.message, true); }
    } } });
    replace(this.pasteBox, ta, h("div", { class: "row" }, go, h("button", { type: "button", text: "Close", on: { click: () => { this.pasteBox.hidden = true; } } })));
    this.pasteBox.hidden = false;
    ta.focus();
  }

  save() {
    const name = this.saveName.value.trim() || "default";
    store.saveToCollection(name, { target: this.tab.target, method: this.tab.method, body: this.tab.body,
      metadata: this.tab.metadata.filter((r) => r[0]), timeoutMs: this.tab.timeoutMs });
    status(`saved to ${name}`);
  }

  dispose() { this.cancel(); }
}

function parseOr(text) { try { return JSON.parse(text); } catch { return text; } }
