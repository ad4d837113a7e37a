// Copy a request as an `rpckit call`, `rpckit bench` or `grpcurl` command
// line, quoted for a POSIX shell; and read such a command back.

// shellQuote leaves words of safe characters alone and puts anything else
// in single quotes, closing, escaping and reopening them around each quote
// (the same rule as rpckit's own).
export function shellQuote(s) {
  s = String(s);
  if (s !== "" && /^[A-Za-z0-9@%+=:,./_-]+$/.test(s)) return s;
  return "'" + s.replace(/'/g, `'\\''`) + "'";
}

export function shellJoin(args) {
  return args.map(shellQuote).join(" ");
}

// goDuration prints milliseconds the way Go's time.ParseDuration reads.
export function goDuration(ms) {
  ms = Math.round(Number(ms) || 0);
  if (ms % 1000 === 0) return ms / 1000 + "s";
  return ms + "ms";
}

export function parseGoDuration(s) {
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/g;
  const unit = { ns: 1e-6, us: 1e-3, "µs": 1e-3, ms: 1, s: 1000, m: 60000, h: 3600000 };
  let total = 0, seen = "", m;
  while ((m = re.exec(s)) !== null) { total += parseFloat(m[1]) * unit[m[2]]; seen += m[0]; }
  if (!s || seen !== s) throw new Error(`bad duration ${JSON.stringify(s)}`);
  return Math.round(total);
}

// messagesOf lists the request messages of a body: for a client or bidi
// stream a JSON array means one message per element.
export function messagesOf(body, clientStreaming) {
  let v;
  try { v = JSON.parse(body); } catch { return [String(body).trim()]; }
  if (clientStreaming && Array.isArray(v)) return v.map((x) => JSON.stringify(x));
  return [JSON.stringify(v)];
}

function connArgs(conn, style) {
  const g = style === "grpcurl";
  const a = [];
  if (!g && conn.protocol && conn.protocol !== "grpc") {
    a.push("--protocol", conn.protocol);
    if (conn.http2 && !conn.tls) a.push("--http2-prior-knowledge");
  }
  if (!conn.tls) a.push(g ? "-plaintext" : "--plaintext");
  else {
    if (conn.caName) a.push(g ? "-cacert" : "--cacert", conn.caName);
    if (conn.certName) a.push(g ? "-cert" : "--cert", conn.certName);
    if (conn.keyName) a.push(g ? "-key" : "--key", conn.keyName);
    if (conn.serverName) a.push(g ? "-servername" : "--servername", conn.serverName);
    if (conn.insecure) a.push(g ? "-insecure" : "--insecure");
  }
  const protos = conn.protoNames || [];
  if (protos.length) a.push(g ? "-import-path" : "--import-path", ".");
  for (const p of protos) a.push(g ? "-proto" : "--proto", p);
  if (conn.protosetName) a.push(g ? "-protoset" : "--protoset", conn.protosetName);
  return a;
}

function headerArgs(metadata, style) {
  const a = [];
  for (const [k, v] of metadata) if (k) a.push(style === "grpcurl" ? "-H" : "-H", `${k}: ${v}`);
  return a;
}

// callCommand: req has target, method, body, metadata [[k, v]], timeoutMs;
// method info says whether the client streams.
export function callCommand(req, conn, clientStreaming) {
  const data = messagesOf(req.body, clientStreaming).join("\n");
  return shellJoin(["rpckit", "call", ...connArgs(conn, "rpckit"), ...headerArgs(req.metadata, "rpckit"),
    "--timeout", goDuration(req.timeoutMs), "-d", data, req.target, req.method]);
}

export function grpcurlCommand(req, conn, clientStreaming) {
  const data = messagesOf(req.body, clientStreaming).join("\n");
  return shellJoin(["grpcurl", ...connArgs(conn, "grpcurl"), ...headerArgs(req.metadata, "grpcurl"),
    "-max-time", String((Number(req.timeoutMs) || 0) / 1000), "-d", data, req.target, req.method]);
}

// benchCommand: bench has mode ("concurrency" | "rate" | "ramp"),
// concurrency, rate, from, to, step, stepS, durationS, slo, engine.
export function benchCommand(req, conn, clientStreaming, bench) {
  const a = ["rpckit", "bench", ...connArgs(conn, "rpckit"), ...headerArgs(req.metadata, "rpckit"),
    "--timeout", goDuration(req.timeoutMs)];
  if (bench.mode === "rate") a.push("--rate", String(bench.rate));
  else if (bench.mode === "ramp") a.push("--rate", `${bench.from}:${bench.to}:+${bench.step}`, "--step", goDuration(bench.stepS * 1000));
  if (bench.mode === "concurrency") a.push("-c", String(bench.concurrency || 1));
  if (bench.mode !== "ramp") a.push("--duration", goDuration(bench.durationS * 1000));
  if (bench.slo) a.push("--slo", bench.slo);
  if (bench.engine === "grpc" && !(conn.protocol && conn.protocol !== "grpc")) a.push("--engine", "grpc");
  a.push("-d", messagesOf(req.body, clientStreaming).join("\n"), req.target, req.method);
  return shellJoin(a);
}

// shellSplit splits a POSIX shell command line into words: single and
// double quotes, backslashes, and line continuations.
export function shellSplit(line) {
  const words = [];
  let cur = null, i = 0;
  const push = (c) => { cur = (cur || "") + c; };
  while (i < line.length) {
    const c = line[i];
    if (c === "\\" && line[i + 1] === "\n") { i += 2; continue; }
    if (/\s/.test(c)) { if (cur !== null) words.push(cur); cur = null; i++; continue; }
    if (c === "'") {
      const j = line.indexOf("'", i + 1);
      if (j < 0) throw new Error("unterminated single quote");
      push(line.slice(i + 1, j)); i = j + 1; continue;
    }
    if (c === '"') {
      i++; let s = "";
      while (i < line.length && line[i] !== '"') {
        if (line[i] === "\\" && '"\\$`\n'.includes(line[i + 1])) { if (line[i + 1] !== "\n") s += line[i + 1]; i += 2; continue; }
        s += line[i++];
      }
      if (i >= line.length) throw new Error("unterminated double quote");
      push(s); i++; continue;
    }
    if (c === "\\") { push(line[i + 1] || ""); i += 2; continue; }
    push(c); i++;
  }
  if (cur !== null) words.push(cur);
  return words;
}

const VALUE_FLAGS = new Set(["-d", "--data", "-H", "--header", "--rpc-header", "--timeout", "-max-time", "--max-time",
  "--cacert", "-cacert", "--cert", "-cert", "--key", "-key", "--servername", "-servername", "--authority", "-authority",
  "--proto", "-proto", "--import-path", "-import-path", "-I", "--protoset", "-protoset", "--rate", "--step", "-c",
  "--concurrency", "--duration", "--slo", "-n", "--count", "--connect-timeout", "-connect-timeout", "--warmup",
  "--reflect-header", "-reflect-header", "--rpc-header", "-rpc-header", "--max-msg-size", "-max-msg-size", "-format", "--format", "--engine", "--protocol", "--codec"]);

// parseCommand reads an rpckit call/bench or grpcurl command back into a
// request (and bench settings, for rpckit bench).
export function parseCommand(line) {
  const words = shellSplit(line.trim());
  if (!words.length) throw new Error("empty command");
  const prog = words[0].split("/").pop();
  let rest;
  if (prog === "rpckit" && (words[1] === "call" || words[1] === "bench")) rest = words.slice(2);
  else if (prog === "grpcurl") rest = words.slice(1);
  else throw new Error("want an rpckit call, rpckit bench or grpcurl command");
  const out = { kind: prog === "grpcurl" ? "grpcurl" : words[1], metadata: [], tls: true, messages: [], bench: {} };
  const positional = [];
  for (let i = 0; i < rest.length; i++) {
    let w = rest[i], val;
    if (w.startsWith("-") && w.includes("=")) { val = w.slice(w.indexOf("=") + 1); w = w.slice(0, w.indexOf("=")); }
    else if (VALUE_FLAGS.has(w)) { val = rest[++i]; if (val === undefined) throw new Error(`${w} needs a value`); }
    if (!w.startsWith("-") || w === "-") { positional.push(w); continue; }
    applyFlag(out, w.replace(/^--?/, ""), val);
  }
  if (positional.length !== 2) throw new Error(`want TARGET and METHOD, got ${positional.length} arguments`);
  [out.target, out.method] = positional;
  return out;
}

function applyFlag(out, name, val) {
  switch (name) {
    case "plaintext": out.tls = false; break;
    case "insecure": out.insecure = true; break;
    case "d": case "data":
      if (val.startsWith("@")) throw new Error("-d " + val + ": the page cannot read files; paste the JSON");
      out.messages = splitJSONSequence(val); break;
    case "H": case "header": case "rpc-header": {
      const j = val.indexOf(":");
      if (j < 0) throw new Error(`header ${JSON.stringify(val)}: want 'key: value'`);
      out.metadata.push([val.slice(0, j).trim(), val.slice(j + 1).trim()]); break;
    }
    case "timeout": out.timeoutMs = parseGoDuration(val); break;
    case "max-time": out.timeoutMs = Math.round(parseFloat(val) * 1000); break;
    case "servername": out.serverName = val; break;
    case "rate": {
      const p = val.split(":");
      if (p.length === 3) Object.assign(out.bench, { mode: "ramp", from: +p[0], to: +p[1], step: Math.abs(+p[2]) });
      else Object.assign(out.bench, { mode: "rate", rate: +val });
      break;
    }
    case "step": out.bench.stepS = parseGoDuration(val) / 1000; break;
    case "c": case "concurrency": out.bench.concurrency = +val; if (!out.bench.mode) out.bench.mode = "concurrency"; break;
    case "duration": out.bench.durationS = parseGoDuration(val) / 1000; break;
    case "slo": out.bench.slo = val; break;
    case "engine": out.bench.engine = val; break;
    case "protocol": out.protocol = val; break;
    case "http2-prior-knowledge": out.http2 = true; break;
    default: break; // flags without a place in the page (certificates by path, ...)
  }
}

// splitJSONSequence splits concatenated JSON values ("{..} {..}").
export function splitJSONSequence(text) {
  const out = [];
  let depth = 0, start = -1, inStr = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inStr) { if (c === "\\") i++; else if (c === '"') inStr = false; continue; }
    if (c === '"') { inStr = true; if (depth === 0 && start < 0) start = i; continue; }
    if (c === "{" || c === "[") { if (depth === 0) start = i; depth++; }
    else if (c === "}" || c === "]") { depth--; if (depth === 0) { out.push(text.slice(start, i + 1)); start = -1; } }
    else if (depth === 0 && !/\s/.test(c) && start < 0) { start = i; }
  }
  if (!out.length && text.trim()) out.push(text.trim());
  return out;
}
