// The drawer: history, saved collections and environments, with export
// and import (ours, and grpcui's history and examples files).
import { h, replace, download, status, readFileText } from "./dom.js";
import { store } from "./store.js";

// renderDrawer fills el; app gives open(req) to restore a request and
// envChanged() after the environments change.
export function renderDrawer(el, app, which = "history") {
  const tabs = ["history", "collections", "environments"].map((w) => h("button", {
    type: "button", class: w === which ? "on" : "", text: w, "data-testid": "drawer-" + w,
    on: { click: () => renderDrawer(el, app, w) } }));
  const importInput = h("input", { type: "file", accept: ".json", "aria-label": "Import file", "data-testid": "import-file",
    on: { change: async () => {
      try { status(store.importText(await readFileText(importInput.files[0]), app.currentTarget())); }
      catch (e) { status(e.message, true); }
      app.envChanged();
      renderDrawer(el, app, which);
    } } });
  const tools = h("div", { class: "tools" },
    h("button", { type: "button", text: "Export", on: { click: () => download("rpckit-ui.json", store.exportAll()) } }),
    h("label", { class: "file ghost" }, "Import (rpckit or grpcui)", importInput));
  const body = which === "history" ? historyList(el, app) : which === "collections" ? collectionList(el, app) : envEditor(el, app);
  replace(el, h("div", { class: "subtabs" }, tabs), tools, body);
}

function reqLabel(req) { return `${req.method.split("/").pop()}  ${req.target || ""}`; }

function historyList(el, app) {
  const items = store.history();
  return h("div", {},
    h("div", { class: "tools" }, h("button", { type: "button", class: "danger", text: "Clear history", on: { click: () => { store.clearHistory(); renderDrawer(el, app, "history"); } } })),
    h("ul", { "data-testid": "history-list" }, items.map((it, i) => h("li", {},
      h("span", { class: "code " + (it.code === "OK" ? "ok" : "bad") }, it.code || ""),
      h("span", { class: "what", title: it.req.method, on: { click: () => app.open(it.req) } }, reqLabel(it.req)),
      h("span", { class: "muted" }, it.timeMs !== undefined ? `${Number(it.timeMs).toFixed(0)} ms` : ""),
      h("button", { type: "button", text: "×", "aria-label": "delete", on: { click: () => { store.removeHistory(i); renderDrawer(el, app, "history"); } } })))));
}

function collectionList(el, app) {
  const cols = store.collections();
  if (!cols.length) return h("p", { class: "muted section" }, "Save a request from its tab (Save) to start a collection.");
  return h("div", { "data-testid": "collections" }, cols.map((c, ci) => h("div", {},
    h("h3", { class: "section" }, c.name),
    h("ul", {}, c.items.map((req, ii) => h("li", {},
      h("span", { class: "what", title: req.method, on: { click: () => app.open(req) } }, req.name || reqLabel(req)),
      h("button", { type: "button", text: "×", "aria-label": "delete", on: { click: () => { store.removeFromCollection(ci, ii); renderDrawer(el, app, "collections"); } } })))))));
}

function envEditor(el, app) {
  const envs = store.envs();
  const names = Object.keys(envs.envs);
  const name = h("input", { type: "text", placeholder: "new environment", "aria-label": "environment name" });
  const pick = h("select", { "aria-label": "edit environment", on: { change: () => { ta.value = JSON.stringify(envs.envs[pick.value] || {}, null, 2); } } },
    names.map((n) => h("option", { value: n, text: n, selected: n === envs.current })));
  const ta = h("textarea", { "aria-label": "variables", "data-testid": "env-vars", value: JSON.stringify(envs.envs[envs.current] || envs.envs[names[0]] || {}, null, 2) });
  const saveBtn = h("button", { type: "button", text: "Save variables", on: { click: () => {
    let vars;
    try { vars = JSON.parse(ta.value); } catch (e) { status("variables: " + e.message, true); return; }
    const n = name.value.trim() || pick.value;
    if (!n) { status("name the environment", true); return; }
    envs.envs[n] = vars;
    if (!envs.current) envs.current = n;
    store.saveEnvs(envs);
    app.envChanged();
    status(`environment ${n} saved`);
    renderDrawer(el, app, "environments");
  } } });
  return h("div", { class: "section" },
    h("p", { class: "muted" }, "Variables are used as {{name}} in request bodies and metadata values."),
    names.length ? h("div", { class: "row" }, "edit ", pick) : null,
    h("div", { class: "row" }, "or add ", name), ta, h("div", { class: "tools" }, saveBtn));
}
