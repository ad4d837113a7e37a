// The request form, generated from the method's input schema (the
// /api/schema answer). It reads and writes a plain JSON value, in the
// canonical proto3 JSON forms: 64-bit integers as strings, enums by name,
// bytes in base64, maps as objects, well-known types in their own forms,
// Any with its type URL. The raw JSON stays the source of truth: the form
// is rebuilt from it and every edit writes it back.
import { h } from "./dom.js";

const INT32 = new Set(["int32", "sint32", "sfixed32", "uint32", "fixed32"]);
const INT64 = new Set(["int64", "sint64", "sfixed64", "uint64", "fixed64"]);
const FLOAT = new Set(["float", "double"]);
const WKT_TEXT = {
  "google.protobuf.Timestamp": "RFC 3339, e.g. 2024-01-02T03:04:05Z",
  "google.protobuf.Duration": "seconds with s, e.g. 1.5s",
  "google.protobuf.FieldMask": "paths, comma-separated: a.b,c",
  "google.protobuf.StringValue": "string", "google.protobuf.BytesValue": "base64",
  "google.protobuf.Int64Value": "int64 (string)", "google.protobuf.UInt64Value": "uint64 (string)",
};
const WKT_NUM = new Set(["google.protobuf.Int32Value", "google.protobuf.UInt32Value", "google.protobuf.FloatValue", "google.protobuf.DoubleValue"]);
const WKT_JSON = new Set(["google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue"]);

// buildForm returns the form element for value (an object) of schema's
// root message; onChange(value) runs after each edit.
export function buildForm(schema, value, onChange) {
  const root = h("div", { class: "form" });
  const state = { schema, value: isObject(value) ? value : {}, onChange, root };
  const rerender = () => {
    root.replaceChildren(messageFields(state, schema.root, state.value, rerender, "$"));
  };
  state.changed = () => onChange(state.value);
  rerender();
  return root;
}

function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }

function messageFields(st, typeName, obj, rerender, path) {
  const msg = st.schema.messages[typeName];
  const frag = document.createDocumentFragment();
  const oneofs = new Map();
  for (const f of msg.fields) {
    if (f.oneof) {
      if (!oneofs.has(f.oneof)) {
        oneofs.set(f.oneof, []);
        frag.appendChild(oneofPlaceholder(f.oneof));
      }
      oneofs.get(f.oneof).push(f);
      continue;
    }
    frag.appendChild(fieldRow(st, f, obj, rerender, path));
  }
  for (const [name, fields] of oneofs) {
    const ph = frag.querySelector(`[data-oneof="${name}"]`);
    ph.replaceWith(oneofRow(st, name, fields, obj, rerender, path));
  }
  return frag;
}

function oneofPlaceholder(name) {
  return h("div", { data: { oneof: name } });
}

function label(f, typeText) {
  return h("label", { title: f.name }, f.json, h("span", { class: "type" }, typeText));
}

function typeText(st, f) {
  if (f.map) return `map<${f.map.key}, ${f.map.type || f.map.kind}>`;
  const t = f.type ? f.type.split(".").pop() : f.kind;
  return (f.repeated ? "repeated " : f.optional ? "optional " : "") + t;
}

function fieldRow(st, f, obj, rerender, path) {
  const p = path + "." + f.json;
  let control;
  if (f.map) control = mapControl(st, f, obj, rerender, p);
  else if (f.repeated) control = listControl(st, f, obj, rerender, p);
  else control = single(st, f.kind, f.type, () => obj[f.json], (v) => setKey(obj, f.json, v), rerender, p, f.optional);
  return h("div", { class: "field", data: { path: p } }, label(f, typeText(st, f)), control);
}

function setKey(obj, key, v) {
  if (v === undefined) delete obj[key]; else obj[key] = v;
}

function oneofRow(st, name, fields, obj, rerender, path) {
  const chosen = fields.find((f) => obj[f.json] !== undefined);
  const sel = h("select", {
    "aria-label": `oneof ${path}.${name}`,
    on: { change: () => {
      for (const f of fields) delete obj[f.json];
      const f = fields.find((x) => x.json === sel.value);
      if (f) obj[f.json] = initial(st, f.kind, f.type);
      st.changed(); rerender();
    } },
  }, h("option", { value: "", text: "(none)" }), fields.map((f) => h("option", { value: f.json, text: f.json, selected: chosen === f })));
  const body = [sel];
  if (chosen) body.push(single(st, chosen.kind, chosen.type, () => obj[chosen.json], (v) => { obj[chosen.json] = v === undefined ? initial(st, chosen.kind, chosen.type) : v; }, rerender, path + "." + chosen.json));
  return h("div", { class: "field", data: { path: path + "." + name } }, h("label", {}, name, h("span", { class: "type" }, "oneof")), h("div", {}, body));
}

// initial is the value a newly set field starts with.
function initial(st, kind, type) {
  if (kind === "message") return st.schema.messages[type] && st.schema.messages[type].wkt ? wktInitial(type) : {};
  if (kind === "enum") return st.schema.enums[type][0].name;
  if (kind === "bool") return false;
  if (INT64.has(kind)) return "0";
  if (INT32.has(kind) || FLOAT.has(kind)) return 0;
  return "";
}

function wktInitial(type) {
  const m = { "google.protobuf.Timestamp": "1970-01-01T00:00:00Z", "google.protobuf.Duration": "0s", "google.protobuf.Struct": {},
    "google.protobuf.ListValue": [], "google.protobuf.Empty": {}, "google.protobuf.Any": { "@type": "" }, "google.protobuf.BoolValue": false,
    "google.protobuf.Int64Value": "0", "google.protobuf.UInt64Value": "0", "google.protobuf.Value": null };
  return Object.prototype.hasOwnProperty.call(m, type) ? m[type] : (WKT_NUM.has(type) ? 0 : "");
}

// single is the control for one value of a kind; get and set read and
// write it (set(undefined) unsets).
function single(st, kind, type, get, set, rerender, path, optional) {
  const done = () => st.changed();
  if (kind === "message") return messageControl(st, type, get, set, rerender, path);
  if (kind === "enum") {
    const vals = st.schema.enums[type];
    const cur = get();
    const sel = h("select", { "aria-label": path, on: { change: () => { set(sel.value === "" ? undefined : sel.value); done(); } } },
      h("option", { value: "", text: "(default)" }),
      vals.map((v) => h("option", { value: v.name, text: `${v.name} = ${v.number}`, selected: cur === v.name || cur === v.number })));
    return sel;
  }
  if (kind === "bool") {
    const sel = h("select", { "aria-label": path, on: { change: () => { set(sel.value === "" ? undefined : sel.value === "true"); done(); } } },
      h("option", { value: "", text: "(default)" }), h("option", { value: "true", text: "true", selected: get() === true }),
      h("option", { value: "false", text: "false", selected: get() === false }));
    return sel;
  }
  const cur = get();
  const input = h("input", {
    type: "text", "aria-label": path, value: cur === undefined || cur === null ? "" : String(cur),
    placeholder: kind === "bytes" ? "base64" : INT64.has(kind) ? "integer (sent as a string)" : kind,
    on: { input: () => { set(scalarValue(kind, input.value, optional)); done(); } },
  });
  return input;
}

// scalarValue is the JSON form of typed text: 64-bit integers stay
// strings; other numbers become numbers when they read as such (else the
// text is kept, and the check names the field).
function scalarValue(kind, text, optional) {
  if (text === "") return optional ? undefined : undefined;
  if (INT64.has(kind)) return text.trim();
  if (INT32.has(kind) || FLOAT.has(kind)) {
    const t = text.trim();
    if (/^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number(t);
    return t;
  }
  return text;
}

function messageControl(st, type, get, set, rerender, path) {
  const m = st.schema.messages[type];
  if (m && m.wkt) return wktControl(st, type, get, set, path);
  const cur = get();
  const on = h("input", { type: "checkbox", checked: cur !== undefined && cur !== null, "aria-label": "set " + path,
    on: { change: () => { set(on.checked ? {} : undefined); st.changed(); rerender(); } } });
  const fs = h("fieldset", {}, h("legend", {}, h("label", { class: "check" }, on, " " + type.split(".").pop())));
  if (isObject(cur)) fs.appendChild(messageFields(st, type, cur, rerender, path));
  return fs;
}

function wktControl(st, type, get, set, path) {
  const done = () => st.changed();
  const cur = get();
  if (type === "google.protobuf.Empty") {
    const on = h("input", { type: "checkbox", checked: cur !== undefined, "aria-label": "set " + path, on: { change: () => { set(on.checked ? {} : undefined); done(); } } });
    return h("label", { class: "check" }, on, " {}");
  }
  if (type === "google.protobuf.BoolValue") return single(st, "bool", "", get, set, null, path);
  if (type === "google.protobuf.Any") return anyControl(st, get, set, path);
  if (WKT_JSON.has(type)) return jsonArea(cur, set, done, path);
  const input = h("input", {
    type: "text", "aria-label": path, value: cur === undefined || cur === null ? "" : String(cur),
    placeholder: WKT_TEXT[type] || type.split(".").pop(),
    on: { input: () => { set(WKT_NUM.has(type) ? scalarValue("double", input.value) : input.value === "" ? undefined : input.value); done(); } },
  });
  return input;
}

function jsonArea(cur, set, done, path) {
  const ta = h("textarea", { "aria-label": path, value: cur === undefined ? "" : JSON.stringify(cur, null, 2),
    on: { input: () => {
      if (ta.value.trim() === "") { set(undefined); done(); ta.parentElement && ta.closest(".field").classList.remove("bad"); return; }
      try { set(JSON.parse(ta.value)); ta.closest(".field").classList.remove("bad"); done(); } catch { ta.closest(".field").classList.add("bad"); }
    } } });
  return ta;
}

function anyControl(st, get, set, path) {
  const cur = isObject(get()) ? get() : undefined;
  const rest = cur ? Object.fromEntries(Object.entries(cur).filter(([k]) => k !== "@type")) : undefined;
  const url = h("input", { type: "text", "aria-label": path + " @type", placeholder: "type.googleapis.com/pkg.Message", value: cur ? cur["@type"] || "" : "" });
  const body = h("textarea", { "aria-label": path + " fields", placeholder: "{ fields of the message }", value: rest ? JSON.stringify(rest, null, 2) : "" });
  const write = () => {
    if (!url.value && !body.value.trim()) { set(undefined); st.changed(); return; }
    let fields = {};
    try { fields = body.value.trim() ? JSON.parse(body.value) : {}; body.closest(".field").classList.remove("bad"); } catch { body.closest(".field").classList.add("bad"); return; }
    set({ "@type": url.value, ...fields });
    st.changed();
  };
  url.addEventListener("input", write);
  body.addEventListener("input", write);
  return h("div", {}, url, body);
}

function listControl(st, f, obj, rerender, path) {
  const list = Array.isArray(obj[f.json]) ? obj[f.json] : [];
  const box = h("div", {});
  list.forEach((_, i) => {
    const item = single(st, f.kind, f.type, () => list[i], (v) => { list[i] = v === undefined ? initial(st, f.kind, f.type) : v; }, rerender, `${path}[${i}]`);
    box.appendChild(h("div", { class: "list-item" }, item, h("button", { type: "button", "aria-label": `remove ${path}[${i}]`, text: "−",
      on: { click: () => { list.splice(i, 1); if (!list.length) delete obj[f.json]; st.changed(); rerender(); } } })));
  });
  box.appendChild(h("button", { type: "button", text: "+ add", "aria-label": "add to " + path, on: { click: () => {
    obj[f.json] = [...list, initial(st, f.kind, f.type)];
    st.changed(); rerender();
  } } }));
  return box;
}

function mapControl(st, f, obj, rerender, path) {
  const map = isObject(obj[f.json]) ? obj[f.json] : {};
  const box = h("div", {});
  for (const key of Object.keys(map)) {
    let k = key;
    const keyInput = h("input", { type: "text", value: key, "aria-label": `key of ${path}`, on: { change: () => {
      const v = map[k]; delete map[k]; map[keyInput.value] = v; k = keyInput.value; st.changed();
    } } });
    const val = single(st, f.map.kind, f.map.type, () => map[k], (v) => { map[k] = v === undefined ? initial(st, f.map.kind, f.map.type) : v; }, rerender, `${path}[${JSON.stringify(key)}]`);
    box.appendChild(h("div", { class: "list-item" }, h("div", { class: "row" }, keyInput, val), h("button", { type: "button", text: "−", "aria-label": `remove ${path}[${JSON.stringify(key)}]`,
      on: { click: () => { delete map[k]; if (!Object.keys(map).length) delete obj[f.json]; st.changed(); rerender(); } } })));
  }
  box.appendChild(h("button", { type: "button", text: "+ add", "aria-label": "add to " + path, on: { click: () => {
    let key = f.map.key === "string" ? "key" : f.map.key === "bool" ? "true" : "0";
    for (let i = 1; Object.prototype.hasOwnProperty.call(map, key); i++) key = f.map.key === "string" ? "key" + i : String(i);
    map[key] = initial(st, f.map.kind, f.map.type);
    obj[f.json] = map;
    st.changed(); rerender();
  } } }));
  return box;
}
