// What the page keeps in the browser's localStorage: open tabs (drafts),
// connection settings, history, saved collections and environments; and
// their export and import as one JSON file, grpcui's history and examples
// files included.

const KEYS = {
  state: "rpckit.ui.state",
  history: "rpckit.ui.history",
  collections: "rpckit.ui.collections",
  envs: "rpckit.ui.envs",
};
const MAX_HISTORY = 200;

function load(key, fallback) {
  try {
    const v = JSON.parse(localStorage.getItem(key));
    return v === null || v === undefined ? fallback : v;
  } catch { return fallback; }
}

function save(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch (e) { console.warn("rpckit: storage full", e); }
}

export const store = {
  state: () => load(KEYS.state, {}),
  saveState: (s) => save(KEYS.state, s),
  history: () => load(KEYS.history, []),
  collections: () => load(KEYS.collections, []),
  envs: () => load(KEYS.envs, { current: "", envs: {} }),
  saveEnvs: (e) => save(KEYS.envs, e),

  addHistory(entry) {
    const h = [entry, ...this.history()].slice(0, MAX_HISTORY);
    save(KEYS.history, h);
  },
  clearHistory() { save(KEYS.history, []); },
  removeHistory(i) { const h = this.history(); h.splice(i, 1); save(KEYS.history, h); },

  saveToCollection(name, req) {
    const cols = this.collections();
    let c = cols.find((c) => c.name === name);
    if (!c) { c = { name, items: [] }; cols.push(c); }
    c.items.push(req);
    save(KEYS.collections, cols);
  },
  removeFromCollection(ci, ii) {
    const cols = this.collections();
    cols[ci].items.splice(ii, 1);
    if (!cols[ci].items.length) cols.splice(ci, 1);
    save(KEYS.collections, cols);
  },

  exportAll() {
    return JSON.stringify({
      rpckit: "ui-export/1", history: this.history(), collections: this.collections(), environments: this.envs(),
    }, null, 2);
  },

  // importText merges a file of ours, or a grpcui history/examples file,
  // and says what it added.
  importText(text, target) {
    let data;
    try { data = JSON.parse(text); } catch (e) { throw new Error("import: not JSON: " + e.message); }
    if (data && data.rpckit === "ui-export/1") return this.importOurs(data);
    if (Array.isArray(data)) return this.importGrpcui(data, target);
    throw new Error("import: neither an rpckit ui export nor a grpcui history or examples file");
  },

  importOurs(data) {
    const h = [...(data.history || []), ...this.history()].slice(0, MAX_HISTORY);
    save(KEYS.history, h);
    const cols = this.collections();
    for (const c of data.collections || []) {
      const mine = cols.find((x) => x.name === c.name);
      if (mine) mine.items.push(...c.items); else cols.push(c);
    }
    save(KEYS.collections, cols);
    if (data.environments && data.environments.envs) {
      const e = this.envs();
      Object.assign(e.envs, data.environments.envs);
      this.saveEnvs(e);
    }
    return `imported ${(data.history || []).length} history entries and ${(data.collections || []).length} collections`;
  },

  importGrpcui(items, target) {
    const reqs = items.map((it, i) => fromGrpcui(it, i, target));
    const examples = reqs.filter((r) => !r.at);
    const hist = reqs.filter((r) => r.at).map((r) => ({ at: r.at, req: r.req, code: r.code, timeMs: r.timeMs }));
    if (hist.length) save(KEYS.history, [...hist, ...this.history()].slice(0, MAX_HISTORY));
    for (const r of examples) this.saveToCollection("grpcui examples", r.req);
    return `imported ${hist.length} history entries and ${examples.length} examples from grpcui`;
  },
};

// fromGrpcui reads one entry of grpcui's history or examples file:
// {name, service, method, request: {metadata: [{name, value}], data,
// timeout_seconds}, startTime?, durationMS?}.
function fromGrpcui(it, i, target) {
  if (!it || typeof it !== "object" || !it.service || !it.method || !it.request) {
    throw new Error(`import: grpcui entry ${i + 1}: want service, method and request`);
  }
  const r = it.request;
  const req = {
    target: target || "", method: it.service + "/" + it.method, name: it.name || "",
    body: JSON.stringify(r.data === undefined ? {} : r.data, null, 2),
    metadata: (r.metadata || []).map((m) => [m.name, m.value]),
    timeoutMs: r.timeout_seconds ? Math.round(r.timeout_seconds * 1000) : 0,
  };
  const out = { req };
  if (it.startTime) {
    out.at = it.startTime;
    out.timeMs = it.durationMS || 0;
    out.code = it.responseData && it.responseData.error ? (it.responseData.error.name || "ERROR") : "OK";
  }
  return out;
}

// expand replaces {{name}} with the environment's value; unknown names are
// left as they are and reported.
export function expand(text, vars, missing) {
  return String(text).replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g, (m, name) => {
    if (vars && Object.prototype.hasOwnProperty.call(vars, name)) return String(vars[name]);
    if (missing) missing.add(name);
    return m;
  });
}
