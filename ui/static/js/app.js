// rpckit ui: the page. Connections and the method sidebar live here; each
// request tab is built by tab.js.
import { h, $, replace, status, readFileText, readFileBase64 } from "./dom.js";
import { get, post, Socket } from "./api.js";
import { store } from "./store.js";
import { renderDrawer } from "./drawer.js";
import { TabView } from "./tab.js";
import { parseCommand } from "./commands.js";

const app = {
  info: null,
  socket: null,
  conns: [],      // {id, settings, services, up, error}
  tabs: [],       // persisted drafts; see tab.js
  active: null,   // key of the shown tab
  views: new Map(),
  schemas: new Map(),
  filtered: [],   // methods shown in the sidebar
  cursor: 0,
};
window.rpckitApp = app; // for the browser tests' inspection only

async function boot() {
  applyTheme(store.state().theme || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"));
  app.info = await get("info");
  app.socket = new Socket();
  const saved = store.state();
  app.tabs = saved.tabs || [];
  app.active = saved.active || null;
  app.loaded = true;
  // Drafts typed just before the page goes away are kept too.
  addEventListener("pagehide", () => { clearTimeout(saveTimer); saveState(); });
  wireTopbar();
  wireSidebar();
  renderEnvSelect();
  renderTabs();
  const targets = saved.conns && saved.conns.length ? saved.conns : app.info.target ? [{ target: app.info.target, tls: app.info.targetTLS, reflection: true }] : [];
  if (targets.length) $("#target").value = targets[targets.length - 1].target;
  for (const s of targets) {
    if (s.certName && !s.keyPem) {
      // The client key is never stored: such a target waits for it.
      app.conns.push({ id: "", settings: s, services: [], up: false, error: "choose the client key again, then reconnect" });
      continue;
    }
    await connect(s).catch(() => {});
  }
  // Targets that failed stay in the saved state, to be tried next time.
  for (const s of targets) if (!app.conns.some((c) => c.settings.target === s.target)) app.conns.push({ id: "", settings: s, services: [], up: false });
  renderSidebar();
}

// --- theme ---------------------------------------------------------------

function applyTheme(t) {
  document.documentElement.dataset.theme = t;
  saveState({ theme: t });
}

// --- state ---------------------------------------------------------------

let saveTimer = null;
function saveState(extra) {
  const s = store.state();
  Object.assign(s, extra || {});
  if (app.loaded) {
    // Until the page has read its state back, only settings are written.
    Object.assign(s, { tabs: app.tabs, active: app.active, conns: app.conns.map((c) => persistable(c.settings)) });
  }
  store.saveState(s);
}
export function saveSoon() {
  clearTimeout(saveTimer);
  saveTimer = setTimeout(() => saveState(), 200);
}

// persistable drops the client key, which is never stored.
function persistable(s) {
  const { keyPem, ...rest } = s;
  return rest;
}

// --- connections -----------------------------------------------------------

function wireTopbar() {
  $("#theme-toggle").addEventListener("click", () => applyTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark"));
  $("#tls-toggle").addEventListener("click", () => {
    const p = $("#tls-panel");
    p.hidden = !p.hidden;
    $("#tls-toggle").setAttribute("aria-expanded", String(!p.hidden));
  });
  $("#connect-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try { await connect(await formSettings()); } catch { /* shown in the status line */ }
  });
  $("#reconnect").addEventListener("click", () => reconnectAll());
  $("#protocol").addEventListener("change", protocolChanged);
  $("#panel-toggle").addEventListener("click", () => {
    const d = $("#drawer");
    d.hidden = !d.hidden;
    if (!d.hidden) renderDrawer(d, drawerApp);
  });
  $("#env-select").addEventListener("change", () => {
    const e = store.envs();
    e.current = $("#env-select").value;
    store.saveEnvs(e);
  });
}

// protocolChanged shows the Thrift panel for Thrift, and the gRPC
// settings (h2c, reflection) for the others; TLS is for all.
function protocolChanged() {
  const thrift = $("#protocol").value === "thrift";
  $("#thrift-panel").hidden = !thrift;
  for (const id of ["#use-h2c", "#use-reflection"]) $(id).closest("label").hidden = thrift;
}

async function formSettings() {
  const s = {
    target: $("#target").value.trim(), tls: $("#use-tls").checked, reflection: $("#use-reflection").checked,
    protocol: $("#protocol").value, http2: $("#use-h2c").checked,
    serverName: $("#tls-servername").value.trim(), insecure: $("#tls-insecure").checked,
  };
  for (const [id, name, pem] of [["#tls-ca", "caName", "caPem"], ["#tls-cert", "certName", "certPem"], ["#tls-key", "keyName", "keyPem"]]) {
    const f = $(id).files[0];
    if (f) { s[name] = f.name; s[pem] = await readFileText(f); }
  }
  const files = [...$("#schema-files").files];
  if (s.protocol === "thrift") return thriftSettings(s, files);
  const protos = files.filter((f) => f.name.endsWith(".proto"));
  const sets = files.filter((f) => !f.name.endsWith(".proto"));
  if (protos.length) {
    s.protos = await Promise.all(protos.map(async (f) => ({ name: f.name, content: await readFileText(f) })));
    s.protoNames = protos.map((f) => f.name);
  }
  if (sets.length) { s.protoset = await readFileBase64(sets[0]); s.protosetName = sets[0].name; }
  return s;
}

// thriftSettings are a Thrift target's: the IDL files and the transport,
// protocol and multiplexed name of the Thrift panel.
async function thriftSettings(s, files) {
  const idl = files.filter((f) => f.name.endsWith(".thrift"));
  s.thrift = {
    files: await Promise.all(idl.map(async (f) => ({ name: f.name, content: await readFileText(f) }))),
    transport: $("#thrift-transport").value, protocol: $("#thrift-protocol").value,
    multiplexed: $("#thrift-multiplexed").value.trim() || undefined,
  };
  return s;
}

// connectBody is the connect request of settings.
function connectBody(settings, id) {
  const tls = { ca: settings.caPem, cert: settings.certPem, key: settings.keyPem, serverName: settings.serverName, insecure: settings.insecure };
  if (settings.thrift) return { id, target: settings.target, plaintext: !settings.tls, tls, thrift: settings.thrift };
  return {
    id, target: settings.target, plaintext: !settings.tls, tls,
    reflection: !!settings.reflection, protos: settings.protos, protoset: settings.protoset,
    protocol: settings.protocol && settings.protocol !== "grpc" ? settings.protocol : undefined, http2: !!settings.http2 || undefined,
  };
}

async function connect(settings, id) {
  if (!settings.target) { status("give a target (host:port)", true); throw new Error("no target"); }
  status(`connecting to ${settings.target}…`);
  const existing = app.conns.find((c) => c.settings.target === settings.target);
  try {
    const resp = await post("connect", connectBody(settings, id || (existing && existing.id) || undefined));
    const conn = { id: resp.id, settings, services: resp.services, loopback: resp.loopback, thrift: !!resp.thrift, up: true };
    if (existing) Object.assign(existing, conn); else app.conns.push(conn);
    for (const key of [...app.schemas.keys()]) if (key.startsWith(settings.target + "|")) app.schemas.delete(key);
    status(`connected to ${settings.target}: ${resp.services.length} services`);
    saveSoon();
    renderSidebar();
    for (const v of app.views.values()) v.connectionChanged();
    return conn;
  } catch (e) {
    if (existing) { existing.up = false; existing.error = e.message; }
    status(`${settings.target}: ${e.message}`, true);
    renderSidebar();
    throw e;
  }
}

// reconnectAll dials every target again; tabs (drafts) stay as they are.
async function reconnectAll() {
  for (const c of [...app.conns]) await connect(c.settings, c.id).catch(() => {});
}

async function disconnect(c) {
  await post("disconnect", { id: c.id }).catch(() => {});
  app.conns = app.conns.filter((x) => x !== c);
  saveSoon();
  renderSidebar();
}

export function connFor(target) {
  return app.conns.find((c) => c.settings.target === target && c.up);
}

export async function ensureConn(target, tls, protocol, http2) {
  return connFor(target) || connect({ target, tls: !!tls, reflection: true, protocol, http2 });
}

// --- sidebar ---------------------------------------------------------------

function wireSidebar() {
  const search = $("#search");
  search.addEventListener("input", () => { app.cursor = 0; renderSidebar(); });
  search.addEventListener("keydown", (ev) => {
    if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
      ev.preventDefault();
      const n = app.filtered.length;
      if (!n) return;
      app.cursor = (app.cursor + (ev.key === "ArrowDown" ? 1 : n - 1)) % n;
      markCursor();
    } else if (ev.key === "Enter") {
      ev.preventDefault();
      const m = app.filtered[app.cursor];
      if (m) openMethod(m.target, m.method);
    } else if (ev.key === "Escape") {
      search.value = ""; renderSidebar();
    }
  });
  document.addEventListener("keydown", (ev) => {
    const t = ev.target;
    const typing = t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName);
    if (ev.key === "/" && !typing) { ev.preventDefault(); search.focus(); search.select(); }
    if (ev.key === "Enter" && (ev.ctrlKey || ev.metaKey)) {
      const v = app.views.get(app.active);
      if (v) { ev.preventDefault(); v.send(); }
    }
  });
}

function matches(text, tokens) {
  const l = text.toLowerCase();
  return tokens.every((t) => l.includes(t));
}

// protocolTag names a connection's protocol when it is not gRPC.
function protocolTag(s) {
  if (s.thrift) return ` (thrift ${s.thrift.transport || "framed"}/${s.thrift.protocol || "binary"})`;
  return s.protocol && s.protocol !== "grpc" ? ` (${s.protocol}${s.http2 && !s.tls ? ", h2c" : ""})` : "";
}

function renderSidebar() {
  replace($("#connections"), app.conns.map((c) => h("div", { class: "conn " + (c.up ? "up" : "down"), title: c.error || "" },
    h("span", { class: "dot" }), h("span", { class: "name" }, (c.settings.tls ? "🔒 " : "") + c.settings.target + protocolTag(c.settings)),
    h("button", { type: "button", text: "↻", "aria-label": "reconnect " + c.settings.target, on: { click: () => connect(c.settings, c.id).catch(() => {}) } }),
    h("button", { type: "button", text: "×", "aria-label": "disconnect " + c.settings.target, on: { click: () => disconnect(c) } }))));
  const tokens = $("#search").value.toLowerCase().split(/\s+/).filter(Boolean);
  app.filtered = [];
  const items = [];
  for (const c of app.conns) {
    if (!c.up) continue;
    for (const s of c.services) {
      const ms = s.methods.filter((m) => matches(m.fullName, tokens));
      if (!ms.length) continue;
      items.push(h("li", { class: "svc", role: "presentation", title: s.doc || "" }, app.conns.length > 1 ? `${s.name} @ ${c.settings.target}` : s.name));
      for (const m of ms) {
        const i = app.filtered.length;
        app.filtered.push({ target: c.settings.target, method: m.fullName, info: m });
        items.push(h("li", { class: "m", role: "option", id: "m-" + i, data: { i: String(i), method: m.fullName }, title: c.thrift ? thriftTitle(m) : "",
          on: { click: () => { app.cursor = i; openMethod(c.settings.target, m.fullName); } } },
          h("span", {}, m.name), kindBadge(m), c.thrift ? h("span", { class: "sig muted" }, `${m.input} → ${m.output}`) : null));
      }
    }
  }
  app.cursor = Math.min(app.cursor, Math.max(0, app.filtered.length - 1));
  replace($("#method-list"), items);
  markCursor();
}

// thriftTitle is a Thrift function's doc comment and signature.
function thriftTitle(m) {
  const sig = `${m.oneway ? "oneway " : ""}${m.output} ${m.name}${m.input}${m.throws ? " throws " + m.throws : ""}`;
  return m.doc ? `${m.doc}\n\n${sig}` : sig;
}

export function kindBadge(m) {
  if (m.oneway) return h("span", { class: "badge" }, "oneway");
  const k = m.clientStreaming && m.serverStreaming ? "bidi" : m.clientStreaming ? "client stream" : m.serverStreaming ? "server stream" : "";
  return k ? h("span", { class: "badge" }, k) : null;
}

function markCursor() {
  for (const el of document.querySelectorAll("#method-list .m.active")) el.classList.remove("active");
  const el = document.getElementById("m-" + app.cursor);
  if (el) {
    el.classList.add("active");
    el.setAttribute("aria-selected", "true");
    el.scrollIntoView({ block: "nearest" });
    $("#search").setAttribute("aria-activedescendant", el.id);
  }
}

export function methodInfo(target, method) {
  const c = app.conns.find((x) => x.settings.target === target);
  if (!c) return null;
  for (const s of c.services) for (const m of s.methods) if (m.fullName === method) return m;
  return null;
}

// --- tabs ----------------------------------------------------------------

let tabSeq = Date.now();

async function openMethod(target, method, req) {
  let tab = !req && app.tabs.find((t) => t.target === target && t.method === method);
  if (!tab) {
    tab = {
      key: "t" + (++tabSeq), target, method, body: "", metadata: [["", ""]],
      timeoutMs: app.info.defaultTimeoutMs, view: "json", thrift: !!(connFor(target) || {}).thrift,
    };
    if (req) Object.assign(tab, { body: req.body, metadata: req.metadata && req.metadata.length ? req.metadata : [["", ""]], timeoutMs: req.timeoutMs || tab.timeoutMs, bench: req.bench });
    const m = methodInfo(target, method);
    if (m && m.clientStreaming && !req) tab.timeoutMs = Math.max(tab.timeoutMs, 300000);
    app.tabs.push(tab);
  }
  app.active = tab.key;
  saveSoon();
  renderTabs();
  const v = app.views.get(tab.key);
  if (v && !req) await v.ready;
  if (v) v.focusEditor();
  return tab;
}

function closeTab(key) {
  const v = app.views.get(key);
  if (v) v.dispose();
  app.views.delete(key);
  app.tabs = app.tabs.filter((t) => t.key !== key);
  if (app.active === key) app.active = app.tabs.length ? app.tabs[app.tabs.length - 1].key : null;
  saveSoon();
  renderTabs();
}

export function renderTabs() {
  replace($("#tabs"), app.tabs.map((t) => h("div", { class: "tab" + (t.key === app.active ? " active" : ""), role: "tab", "aria-selected": String(t.key === app.active) },
    h("button", { type: "button", class: "ghost", text: t.method.split("/").pop(), title: `${t.method} @ ${t.target}`, on: { click: () => { app.active = t.key; saveSoon(); renderTabs(); } } }),
    h("button", { type: "button", class: "x", text: "×", "aria-label": "close tab", on: { click: () => closeTab(t.key) } }))));
  const body = $("#tab-body");
  const tab = app.tabs.find((t) => t.key === app.active);
  if (!tab) {
    replace(body, h("p", { class: "empty" }, "Connect to a target, then pick a method (search with ", h("kbd", {}, "/"), ", move with the arrows, open with ", h("kbd", {}, "Enter"), ", send with ", h("kbd", {}, "Ctrl"), "+", h("kbd", {}, "Enter"), ")."));
    return;
  }
  let v = app.views.get(tab.key);
  if (!v) { v = new TabView(tab, tabApp); app.views.set(tab.key, v); }
  replace(body, v.el);
}

// --- what the other modules see -----------------------------------------------

function currentEnv() {
  const e = store.envs();
  return e.envs[e.current] || {};
}

function renderEnvSelect() {
  const e = store.envs();
  replace($("#env-select"), h("option", { value: "", text: "(none)" }),
    Object.keys(e.envs).map((n) => h("option", { value: n, text: n, selected: n === e.current })));
}

async function schemaFor(target, message) {
  const key = target + "|" + message;
  if (!app.schemas.has(key)) {
    const c = connFor(target);
    if (!c) throw new Error(`not connected to ${target}`);
    app.schemas.set(key, get("schema", { conn: c.id, message }));
  }
  return app.schemas.get(key);
}

const tabApp = {
  get info() { return app.info; },
  get socket() { return app.socket; },
  connFor, ensureConn, methodInfo, schemaFor, saveSoon, env: currentEnv,
  open: (req) => restore(req),
  focusSearch: () => $("#search").focus(),
};

const drawerApp = {
  open: (req) => restore(req),
  currentTarget: () => (app.conns[0] && app.conns[0].settings.target) || "",
  envChanged: () => renderEnvSelect(),
};

// restore opens a saved, historical or pasted request in a new tab.
export async function restore(req) {
  const target = req.target || (app.conns[0] && app.conns[0].settings.target);
  if (!target) { status("connect to a target first", true); return null; }
  try { await ensureConn(target, req.tls, req.protocol, req.http2); } catch { return null; }
  const tab = await openMethod(target, req.method, req);
  status(`restored ${req.method}`);
  return tab;
}

export function restoreCommand(text) {
  const c = parseCommand(text);
  const m = methodInfo(c.target, c.method.replace(/^\//, "").replace(/\.(\w+)$/, "/$1"));
  const method = m ? m.fullName : c.method;
  const clientStreaming = m && m.clientStreaming;
  const body = c.messages.length === 0 ? "{}" : clientStreaming && c.messages.length > 1
    ? JSON.stringify(c.messages.map((x) => JSON.parse(x)), null, 2) : pretty(c.messages[0]);
  const req = { target: c.target, method, body, metadata: c.metadata, timeoutMs: c.timeoutMs, tls: c.tls, protocol: c.protocol, http2: c.http2 };
  if (c.kind === "bench" && Object.keys(c.bench).length) req.bench = { ...defaultsOfBench(), ...c.bench };
  return restore(req);
}
tabApp.restoreCommand = restoreCommand;

function defaultsOfBench() { return { mode: "concurrency", concurrency: 1, rate: 100, from: 50, to: 200, step: 50, stepS: 2, durationS: 5, slo: "" }; }

function pretty(text) { try { return JSON.stringify(JSON.parse(text), null, 2); } catch { return text; } }

boot().catch((e) => status("rpckit ui: " + e.message, true));
