// The page's API client: JSON over fetch (the session cookie rides along;
// the origin is the page's own) and one WebSocket for streams and benches.

export class APIError extends Error {
  constructor(message, path) {
    super(message);
    this.path = path || "";
  }
}

async function answer(resp) {
  const text = await resp.text();
  let body;
  try { body = text ? JSON.parse(text) : {}; } catch { body = { error: text.trim() }; }
  // Failed operations (a target that cannot be dialled, refused input)
  // come back as 200 with an error, so the browser logs nothing.
  if (!resp.ok || body.error) throw new APIError(body.error || resp.statusText, body.path);
  return body;
}

export async function get(path, params) {
  const q = params ? "?" + new URLSearchParams(params) : "";
  return answer(await fetch("/api/" + path + q, { credentials: "same-origin" }));
}

export async function post(path, body) {
  return answer(await fetch("/api/" + path, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  }));
}

// Socket multiplexes calls by id; handlers get each frame of their id.
export class Socket {
  constructor() {
    this.handlers = new Map();
    this.queue = [];
    this.seq = 0;
    this.open();
  }
  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    this.ws = new WebSocket(proto + "//" + location.host + "/api/ws");
    this.ready = false;
    this.ws.addEventListener("open", () => {
      this.ready = true;
      for (const f of this.queue.splice(0)) this.ws.send(f);
    });
    this.ws.addEventListener("message", (ev) => this.dispatch(JSON.parse(ev.data)));
    this.ws.addEventListener("close", () => {
      this.ready = false;
      for (const [id, fn] of this.handlers) fn({ t: "closed", id });
      this.handlers.clear();
      setTimeout(() => this.open(), 500);
    });
  }
  dispatch(f) {
    const fn = this.handlers.get(f.id);
    if (fn) fn(f);
  }
  newID(prefix) { return prefix + (++this.seq) + "-" + Date.now().toString(36); }
  on(id, fn) { this.handlers.set(id, fn); }
  off(id) { this.handlers.delete(id); }
  send(frame) {
    const data = JSON.stringify(frame);
    if (this.ready) this.ws.send(data);
    else this.queue.push(data);
  }
}
