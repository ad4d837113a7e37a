// The browser suite of rpckit ui: one test per acceptance line of the
// page. `make browser` builds the test server and rpckit and runs it;
// `npm test` here builds what is missing first.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { GRPCURL, OUT, RPCKIT, boost, editorText, keepBoosted, launch, leave, newTab, openMethod, openPage, prepare, screenshot, setEditor, startServer, visit } from "./lib.mjs";

const run = promisify(execFile);
const ECHO = "rpckit.test.v1.Test/Echo";
let info, browser, unboost;
let tab; // the tab the tests visit anew
let pages = []; // the pages the running test used

before(async () => {
  prepare();
  info = await startServer();
  browser = await launch();
  tab = await newTab(browser, { clipboard: [new URL(info.url).origin] });
  unboost = keepBoosted();
});

after(async () => {
  if (unboost) unboost();
  if (browser) await browser.close();
  if (info) await info.stop();
});

// Every page of every test: no CSP violation, console error, page error or
// request off the page's host, up to and including its unload; then the
// pages of their own go.
afterEach(async () => {
  const used = pages;
  pages = [];
  try {
    for (const p of used) {
      assert.deepEqual(await p.csp(), [], "CSP violations");
      await leave(p);
      assert.deepEqual(p.problems.console, [], "console errors");
      assert.deepEqual(p.problems.pageErrors, [], "page errors");
      assert.deepEqual(p.problems.offHost, [], "requests off the host");
    }
  } finally {
    for (const p of used) if (p !== tab) await p.context().close();
  }
});

// fresh starts a test on the page (or url) with empty storage, in the
// suite's tab, or with opts.own in a tab of its own.
async function fresh(url = info.url, opts = {}) {
  const p = opts.own ? await openPage(browser, url, opts) : await visit(tab, url, opts);
  pages.push(p);
  if (url === info.url) await p.waitForSelector(`#method-list .m[data-method="${ECHO}"]`);
  return p;
}

// benchDone waits for the end of the load test the page runs and fails
// with the page's message if it was refused.
async function benchDone(p) {
  await p.waitForSelector("[data-testid=bench-summary], [data-testid=bench-error]", { timeout: 20000 });
  const refused = p.locator("[data-testid=bench-error]");
  if (await refused.count()) assert.fail(`load test refused: ${await refused.textContent()}`);
}

const statusCode = (p) => p.locator("[data-testid=response] [data-testid=status-code]");

async function sendAndWait(p) {
  await p.click("[data-testid=send]");
  await p.waitForFunction(() => {
    const el = document.querySelector("[data-testid=response] [data-testid=status-code]");
    return el && el.textContent && el.textContent !== "RUNNING";
  });
  return (await statusCode(p).textContent()).trim();
}

async function connectTo(p, target, { tls = false, ca, cert, key } = {}) {
  await p.fill("#target", target);
  await p.setChecked("#use-tls", tls);
  if (ca || cert || key) {
    if (await p.isHidden("#tls-panel")) await p.click("#tls-toggle");
    if (ca) await p.setInputFiles("#tls-ca", ca);
    if (cert) await p.setInputFiles("#tls-cert", cert);
    if (key) await p.setInputFiles("#tls-key", key);
  }
  await p.click("#connect");
  await p.waitForFunction((t) => {
    const s = document.querySelector("#status-line").textContent;
    return s.includes(t) && !s.includes("connecting");
  }, target);
  return (await p.textContent("#status-line")).trim();
}

const api = (p, path, body) => p.evaluate(async ([path, body]) => {
  const r = await fetch("/api/" + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}, [path, body]);

// The unary calls the plaintext server received after sequence number
// seq, as it decoded them: method, x- metadata, request.
async function received(seq) {
  const r = await fetch(`${info.recorder}/calls?after=${seq}`);
  return (await r.json()).map(({ seq, ...c }) => ({ ...c, seq }));
}
async function lastSeq() {
  const all = await received(0);
  return all.length ? all[all.length - 1].seq : 0;
}
const sentData = ({ method, metadata, request }) => ({ method, metadata, request });

describe("1. connect plaintext and TLS; Reconnect keeps drafts", () => {
  test("plaintext, TLS with a CA, mTLS, and a reconnect that keeps the draft", async () => {
    const p = await fresh();
    assert.match(await p.textContent("#connections"), new RegExp(info.plain));
    assert.match(await connectTo(p, info.tls, { tls: true, ca: info.ca }), /connected to .*: \d+ services/);
    assert.match(await connectTo(p, info.mtls, { tls: true, ca: info.ca, cert: info.clientCert, key: info.clientKey }), /connected/);
    assert.equal(await p.locator("#connections .conn.up").count(), 3);
    await p.fill("#search", "Echo");
    const echoes = p.locator(`#method-list .m[data-method="${ECHO}"]`);
    assert.equal(await echoes.count(), 3); // one per target
    await echoes.nth(1).click(); // the TLS target
    await p.waitForSelector(`.tab.active button[title="${ECHO} @ ${info.tls}"]`);
    await setEditor(p, '{"number":"11"}');
    assert.equal(await sendAndWait(p), "OK (0)");
    assert.match(await p.textContent("[data-testid=response-json]"), /"number": "11"/);
    await echoes.nth(2).click(); // mTLS
    await p.waitForSelector(`.tab.active button[title="${ECHO} @ ${info.mtls}"]`);
    await setEditor(p, '{"number":"13"}');
    assert.equal(await sendAndWait(p), "OK (0)");

    const draft = '{\n  "item": {"name": "draft kept"},\n  "number": "12"\n}';
    await setEditor(p, draft);
    await p.evaluate(() => { document.querySelector("#status-line").textContent = ""; });
    await p.click("#reconnect");
    await p.waitForFunction((t) => document.querySelector("#status-line").textContent.startsWith(`connected to ${t}`), info.mtls);
    assert.equal(await p.locator("#connections .conn.up").count(), 3);
    assert.equal(await editorText(p), draft);
    assert.equal(await sendAndWait(p), "OK (0)");
    assert.match(await p.textContent("[data-testid=response-json]"), /"name": "draft kept"/);
    await p.reload();
    await p.waitForSelector(".tab.active");
    assert.equal(await editorText(p), draft, "the draft survives a reload");
    await screenshot(p, "connect-light");
  });
});

describe("2. keyboard only: search 500 methods, open one, send", () => {
  test("slash, type, arrows, Enter, Ctrl+Enter", async () => {
    const p = await fresh();
    await connectTo(p, info.wide);
    await p.waitForFunction(() => document.querySelectorAll('#method-list .m[data-method^="rpckit.wide.v1.Catalog/"]').length === 500);
    await p.evaluate(() => document.activeElement.blur());
    await p.keyboard.press("/");
    assert.equal(await p.evaluate(() => document.activeElement.id), "search");
    await p.keyboard.type("catalog gateway");
    await p.waitForFunction(() => document.querySelectorAll("#method-list .m").length === 20);
    for (const key of ["ArrowDown", "ArrowDown", "ArrowDown", "ArrowUp", "ArrowDown"]) await p.keyboard.press(key);
    assert.equal(await p.getAttribute("#method-list .m.active", "data-method"), "rpckit.wide.v1.Catalog/UpdateGateway");
    await p.keyboard.press("Enter");
    await p.waitForSelector('.tab.active button[title^="rpckit.wide.v1.Catalog/UpdateGateway @"]');
    // The editor has the focus and the method's template.
    await p.waitForFunction(() => document.activeElement.dataset.testid === "editor" && document.activeElement.textContent.includes('"id"'));
    await p.keyboard.press("Control+Enter");
    await p.waitForFunction(() => (document.querySelector("[data-testid=response] [data-testid=status-code]") || {}).textContent === "OK (0)");
    assert.match(await p.textContent("[data-testid=response-json]"), /"method": "UpdateGateway"/);
  });
});

describe("3. the form's JSON is what protojson accepts; bad input shows the path", () => {
  test("every kind of field through the form", async () => {
    const p = await fresh();
    await openMethod(p, ECHO);
    await setEditor(p, "{}");
    await p.click("[data-testid=view-form]");
    const form = p.locator("[data-testid=form]");
    await form.locator('input[aria-label="set $.item"]').check();
    const fill = (path, v) => form.locator(`[aria-label=${JSON.stringify(path)}]`).fill(v);
    await fill("$.item.name", "it's");
    await fill("$.item.id", "9007199254740993");
    await fill("$.item.big", "18446744073709551615");
    await fill("$.item.price", "1.5");
    await form.locator('[aria-label="$.item.active"]').selectOption("true");
    await fill("$.item.blob", "AAEC");
    await form.locator('[aria-label="$.item.color"]').selectOption("COLOR_GREEN");
    await form.locator('[aria-label="add to $.item.tags"]').click();
    await form.locator('[aria-label="add to $.item.tags"]').click();
    await fill("$.item.tags[0]", "a");
    await fill("$.item.tags[1]", "b");
    await form.locator('[aria-label="add to $.item.counts"]').click();
    await fill('$.item.counts["key"]', "3");
    await form.locator('input[aria-label="set $.item.child"]').check();
    await fill("$.item.child.name", "kid");
    await form.locator('[aria-label="oneof $.item.choice"]').selectOption("code");
    await fill("$.item.code", "7");
    await fill("$.item.created", "2024-01-02T03:04:05Z");
    await fill("$.item.maybe", "5");
    await fill("$.item.ratio", "0.25");
    await fill("$.item.delta", "-3");
    await fill("$.item.mask", "123");
    await form.locator('[aria-label="add to $.item.colors"]').click();
    await fill("$.item.nickname", "nick");
    await fill("$.delay", "1.5s");
    await fill("$.number", "-42");
    const json = JSON.parse(await editorText(p));
    const conn = await p.evaluate(() => window.rpckitApp.conns[0].id);
    // The form wrote the canonical proto3 JSON a person would: 64-bit
    // integers as strings, enums by name, well-known types in their forms.
    const want = {
      item: {
        name: "it's", id: "9007199254740993", big: "18446744073709551615", price: 1.5, active: true, blob: "AAEC",
        color: "COLOR_GREEN", tags: ["a", "b"], counts: { key: 3 }, child: { name: "kid" }, code: 7,
        created: "2024-01-02T03:04:05Z", maybe: 5, ratio: 0.25, delta: -3, mask: "123", colors: ["COLOR_UNSPECIFIED"], nickname: "nick",
      },
      delay: "1.5s", number: "-42",
    };
    assert.deepEqual(json, want);
    // protojson (the page's codec) accepts it, and reads it as the same
    // message as the hand-written JSON.
    const got = await api(p, "check", { conn, method: ECHO, body: json });
    const ref = await api(p, "check", { conn, method: ECHO, body: want });
    assert.equal(got.body.error, undefined, got.body.error);
    assert.deepEqual(got.body.canonical, ref.body.canonical);
    assert.equal(got.body.canonical.delay, "1.500s"); // protojson's own rendering
    assert.equal(got.body.canonical.item.id, "9007199254740993");

    await fill("$.item.id", "abc");
    await p.waitForFunction(() => document.querySelector("[data-testid=input-error]").textContent.startsWith("at item.id"));
    assert.equal(await form.locator('.field.bad[data-path="$.item.id"]').count(), 1);
    await screenshot(p, "form-light");
    await p.click("[data-testid=view-json]");
    await setEditor(p, '{"item":{"tags":["a",3]}}');
    await p.waitForFunction(() => document.querySelector("[data-testid=input-error]").textContent.startsWith("at item.tags[1]"));
    await setEditor(p, '{"item":{"counts":{"k":"x"}}}');
    await p.waitForFunction(() => document.querySelector("[data-testid=input-error]").textContent.startsWith('at item.counts["k"]'));
  });
});

describe("4. status, time, headers, trailers and decoded error details", () => {
  test("a failing call and a good one", async () => {
    const p = await fresh();
    await openMethod(p, ECHO);
    await setEditor(p, '{"failCode": 5, "failMessage": "no such item"}');
    await p.fill('[aria-label="metadata key 1"]', "x-echo-who");
    await p.fill('[aria-label="metadata value 1"]', "tester");
    assert.equal(await sendAndWait(p), "NOT_FOUND (5)");
    const resp = p.locator("[data-testid=response]");
    assert.match(await resp.textContent(), /no such item/);
    assert.match(await resp.locator("[data-testid=time]").textContent(), /^\d+\.\d ms$/);
    assert.match(await resp.locator('table[aria-label="Response headers"]').textContent(), /x-echo-who\s*tester/);
    assert.match(await resp.locator('table[aria-label="Response trailers"]').textContent(), /x-trailer-who\s*tester/);
    const details = (await resp.locator("[data-testid=details] pre").allTextContents()).map((t) => JSON.parse(t));
    assert.deepEqual(details, [
      { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "REQUESTED", domain: "test.rpckit.dev", metadata: { code: "5" } },
      { "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field: "fail_code", description: "asked to fail" }] },
    ]);
    await screenshot(p, "error-light");
    await setEditor(p, '{"item": {"name": "ok"}}');
    assert.equal(await sendAndWait(p), "OK (0)");
    assert.match(await p.textContent("[data-testid=response-json]"), /"x-echo-who=tester"/);
    assert.match(await resp.locator("[data-testid=time]").textContent(), /^\d+\.\d ms$/);
    assert.match(await resp.locator('table[aria-label="Response trailers"]').textContent(), /x-trailer-who\s*tester/);
  });
});

describe("5. bidi: one by one, half-close, cancel within 1 s", () => {
  test("send, half-close, cancel", async (t) => {
    const p = await fresh();
    await openMethod(p, "rpckit.test.v1.Test/Chat");
    await p.click("[data-testid=send]"); // open the stream
    for (const n of [1, 2, 3]) {
      await setEditor(p, `{"number": ${n}}`);
      await p.click("[data-testid=send]");
      // Each answer arrives before the next message goes.
      await p.waitForFunction((n) => document.querySelector("[data-testid=received]").textContent === String(n), n);
      assert.match(await p.locator("[data-testid=messages] .msg").last().textContent(), new RegExp(`^#${n}\\{"number":"${n}"\\}$`));
    }
    assert.equal(await p.textContent("[data-testid=sent]"), "3");
    await p.click("[data-testid=half-close]");
    await p.waitForFunction(() => document.querySelector("[data-testid=response] [data-testid=status-code]").textContent === "OK (0)");
    assert.equal(await p.textContent("[data-testid=received]"), "3");
    await screenshot(p, "bidi-light");

    await p.click("[data-testid=send]");
    await setEditor(p, '{"number": 9}');
    await p.click("[data-testid=send]");
    await p.waitForFunction(() => document.querySelector("[data-testid=received]").textContent === "1");
    boost();
    // From the click to the status on screen, measured in the page.
    const took = await p.evaluate(() => new Promise((resolve) => {
      const el = document.querySelector("[data-testid=response]");
      const start = performance.now();
      new MutationObserver((_, obs) => {
        const s = el.querySelector("[data-testid=status-code]");
        if (s && s.textContent.startsWith("CANCELLED")) { obs.disconnect(); resolve(performance.now() - start); }
      }).observe(el, { subtree: true, childList: true, characterData: true });
      document.querySelector("[data-testid=cancel]").click();
    }));
    t.diagnostic(`cancel took ${took.toFixed(0)} ms`);
    assert.ok(took < 1000, `cancel took ${took} ms`);
    assert.equal(await p.isDisabled("[data-testid=cancel]"), true);
  });
});

describe("6. a 100,000-message server stream stays responsive", () => {
  test("exact count, no long task over 200 ms", async (t) => {
    const p = await fresh();
    await openMethod(p, "rpckit.test.v1.Test/Count");
    await setEditor(p, '{"count": 100000}');
    await p.fill("[data-testid=deadline]", "60s");
    await p.press("[data-testid=deadline]", "Tab");
    boost();
    await p.evaluate(() => { window.__longTasks = []; });
    await p.click("[data-testid=send]");
    await p.waitForFunction(() => (document.querySelector("[data-testid=response] [data-testid=status-code]") || {}).textContent === "OK (0)", null, { timeout: 40000 });
    await p.waitForFunction(() => document.querySelector("[data-testid=received]").textContent === "100000");
    const longest = await p.evaluate(() => Math.max(0, ...window.__longTasks));
    t.diagnostic(`longest main-thread task during the stream: ${longest} ms`);
    assert.ok(longest < 200, `longest main-thread task ${longest} ms`);
    assert.equal(await p.evaluate(() => window.rpckitApp.views.get(window.rpckitApp.active).stream), null);
    // The list is virtual: few rows in the document, the last one the
    // 100,000th message, and scrolling to the top shows the first.
    const rows = await p.locator("[data-testid=messages] .msg").count();
    assert.ok(rows > 0 && rows < 200, `${rows} rows in the DOM`);
    assert.match(await p.locator("[data-testid=messages] .msg").last().textContent(), /^#100000\{"number":"100000"\}$/);
    await screenshot(p, "stream-light");
    await p.evaluate(() => { document.querySelector("[data-testid=messages]").scrollTop = 0; });
    await p.waitForFunction(() => (document.querySelector("[data-testid=messages] .msg") || {}).textContent === '#1{"number":"1"}');
  });
});

describe("7. copied commands run with sh -c and send the same data; paste restores", () => {
  test("rpckit call, grpcurl and rpckit bench", async () => {
    const p = await fresh();
    await openMethod(p, ECHO);
    const body = { item: { name: "it's $(whoami) `id` \"q\" \\ $HOME *" }, number: "5" };
    await setEditor(p, JSON.stringify(body, null, 2));
    await p.fill('[aria-label="metadata key 1"]', "x-echo-q");
    await p.fill('[aria-label="metadata value 1"]', "a'b $(c) `d`");
    const seq0 = await lastSeq();
    assert.equal(await sendAndWait(p), "OK (0)");
    const pageResp = JSON.parse(await p.textContent("[data-testid=response-json]"));
    const fromPage = await received(seq0);
    assert.equal(fromPage.length, 1);
    const sent = sentData(fromPage[0]);
    assert.deepEqual(sent, { method: "/" + ECHO, metadata: { "x-echo-q": ["a'b $(c) `d`"] }, request: body });

    const env = { ...process.env, PATH: [path.dirname(RPCKIT), path.dirname(GRPCURL), process.env.PATH].join(":") };
    const copy = async (kind) => {
      await p.click("[data-testid=copy-as]");
      await p.click(`[data-testid=copy-${kind}]`);
      const text = await p.inputValue("[data-testid=command]");
      assert.equal(await p.evaluate(() => navigator.clipboard.readText()), text, "the command is on the clipboard");
      return text;
    };
    // runs the command with sh -c; resolves to its output and the calls
    // the server received from it.
    const runCopied = async (cmd) => {
      const seq = await lastSeq();
      const out = await run("sh", ["-c", cmd], { env, timeout: 30000 });
      return { out: out.stdout, calls: await received(seq) };
    };

    const call = await copy("call");
    assert.match(call, /^rpckit call --plaintext -H 'x-echo-q: a'\\''b \$\(c\) `d`' --timeout 10s -d /);
    const c = await runCopied(call);
    assert.deepEqual(JSON.parse(c.out), pageResp);
    assert.deepEqual(c.calls.map(sentData), [sent]);

    const grpcurl = await copy("grpcurl");
    assert.match(grpcurl, /^grpcurl -plaintext -H 'x-echo-q: a'\\''b \$\(c\) `d`' -max-time 10 -d /);
    const g = await runCopied(grpcurl);
    assert.deepEqual(JSON.parse(g.out), pageResp);
    assert.deepEqual(g.calls.map(sentData), [sent]);

    await p.click("[data-testid=view-bench]");
    await p.selectOption('[aria-label="load mode"]', "rate");
    await p.fill('[aria-label^="rate, calls/s"]', "20");
    await p.fill('[aria-label="duration, s"]', "1");
    const bench = await copy("bench");
    assert.match(bench, /^rpckit bench --plaintext -H .* --timeout 10s --rate 20 --duration 1s -d /);
    const b = await runCopied(bench + " --format json");
    const res = JSON.parse(b.out);
    assert.equal(res.calls + res.not_sent, 20);
    assert.equal(res.codes.OK, res.calls);
    assert.equal(b.calls.length, res.calls);
    for (const x of b.calls) assert.deepEqual(sentData(x), sent);

    // Pasting each command back opens a tab with the same request.
    const restore = async (cmd) => {
      await p.click("[data-testid=paste]");
      await p.focus("[data-testid=paste-input]");
      await p.evaluate((t) => navigator.clipboard.writeText(t), cmd);
      await p.keyboard.press("Control+V");
      assert.equal(await p.inputValue("[data-testid=paste-input]"), cmd);
      const tabs = await p.locator(".tab").count();
      await p.click("[data-testid=restore]");
      await p.waitForFunction((n) => document.querySelectorAll(".tab").length === n + 1, tabs);
      assert.deepEqual(JSON.parse(await editorText(p)), body);
      assert.equal(await p.inputValue('[aria-label="metadata key 1"]'), "x-echo-q");
      assert.equal(await p.inputValue('[aria-label="metadata value 1"]'), "a'b $(c) `d`");
      assert.equal(await p.inputValue("[data-testid=deadline]"), "10s");
      const seq = await lastSeq();
      assert.equal(await sendAndWait(p), "OK (0)");
      assert.deepEqual((await received(seq)).map(sentData), [sent]);
    };
    await restore(call);
    await restore(grpcurl);
    await restore(bench);
    await p.click("[data-testid=view-bench]");
    assert.equal(await p.inputValue('[aria-label="load mode"]'), "rate");
    assert.equal(await p.inputValue('[aria-label^="rate, calls/s"]'), "20");
    assert.equal(await p.inputValue('[aria-label="duration, s"]'), "1");
  });
});

// shape lists the key paths of a JSON value (array elements merged).
function shape(v, at = "$", out = new Set()) {
  if (Array.isArray(v)) for (const x of v) shape(x, at + "[]", out);
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) { out.add(at + "." + k); shape(x, at + "." + k, out); }
  return out;
}

describe("8. bench: live progress, the CLI's numbers, Stop within 1 s, limits", () => {
  test("a rate run, a stopped run, refused runs", async (t) => {
    const p = await fresh();
    await openMethod(p, ECHO);
    await p.click("[data-testid=view-bench]");
    await p.selectOption('[aria-label="load mode"]', "rate");
    await p.fill('[aria-label^="rate, calls/s"]', "50");
    await p.fill('[aria-label="duration, s"]', "2");
    await p.fill('[aria-label="SLO"]', "p99<9s,errors<10%");
    // The CLI runs the same test, from the copied command, meanwhile: its
    // JSON must have the fields of the page's (report.WriteJSON's).
    await p.click("[data-testid=copy-as]");
    await p.click("[data-testid=copy-bench]");
    const cmd = await p.inputValue("[data-testid=command]");
    assert.match(cmd, /--rate 50 --duration 2s --slo 'p99<9s,errors<10%'/);
    const env = { ...process.env, PATH: path.dirname(RPCKIT) + ":" + process.env.PATH };
    const cliRun = run("sh", ["-c", cmd + " --format json"], { env, timeout: 30000 });
    // Every progress line shown while the run goes, until the summary.
    await p.evaluate(() => {
      window.__progress = [];
      const live = document.querySelector("[data-testid=bench-live]");
      new MutationObserver((_, obs) => {
        const calls = live.querySelector("[data-testid=live-calls] b");
        if (calls) window.__progress.push({ calls: Number(calls.textContent), rate: live.querySelector("[data-testid=live-rate] b").textContent, summary: !!document.querySelector("[data-testid=bench-summary]") });
      }).observe(live, { childList: true, subtree: true });
    });
    await p.click("text=Start load test");
    await benchDone(p);
    const progress = await p.evaluate(() => window.__progress);
    const res = JSON.parse(await p.textContent("[data-testid=bench-json]"));
    assert.ok(progress.length >= 1 && progress.every((x) => !x.summary), JSON.stringify(progress));
    assert.ok(progress[0].calls > 0 && progress.at(-1).calls <= res.calls, JSON.stringify(progress));
    assert.ok(await p.evaluate(() => document.querySelector("[data-testid=bench-live] ~ div .uplot") !== null), "a live plot");
    // The summary and the plots are drawn from the run's JSON.
    assert.equal(res.calls + res.not_sent, 100);
    assert.equal(await p.textContent("[data-testid=sum-calls]"), String(res.calls));
    assert.equal(await p.textContent("[data-testid=sum-errors]"), String(res.errors));
    const pct = (q) => res.latency.percentiles.find((x) => x.percentile === q).ms;
    assert.equal(await p.textContent("[data-testid=sum-p50]"), pct(50).toFixed(3) + " ms");
    assert.equal(await p.textContent("[data-testid=sum-p99]"), pct(99).toFixed(3) + " ms");
    assert.match(await p.textContent("[data-testid=verdicts]"), /✓ p99<9s[\s\S]*✓ errors<10%/);
    const plots = await p.evaluate(() => [...document.querySelectorAll("[data-testid=bench-result] [data-testid=plot]")]
      .map((el) => ({ title: el.querySelector("h4").textContent, data: el.plot.data })));
    assert.deepEqual(plots.map((x) => x.title), ["Latency over time (ms)", "Throughput over time (calls/s)", "Latency by percentile (ms)"]);
    const s = res.series;
    assert.ok(s.length >= 2);
    const col = (k) => s.map((x) => x[k] ?? null);
    assert.deepEqual(plots[0].data, [s.map((x) => x.at_ms / 1000), col("p50_ms"), col("p90_ms"), col("p99_ms"), col("max_ms")]);
    assert.deepEqual(plots[1].data, [s.map((x) => x.at_ms / 1000), col("rps"), col("errors")]);
    const ps = res.latency.percentiles.filter((x) => x.percentile < 100);
    assert.deepEqual(plots[2].data, [ps.map((x) => 1 / (1 - x.percentile / 100)), ps.map((x) => x.ms)]);
    // Download gives the JSON as it is.
    const [download] = await Promise.all([p.waitForEvent("download"), p.click("text=Download JSON (as rpckit bench --format json)")]);
    assert.equal(readFileSync(await download.path(), "utf8"), await p.textContent("[data-testid=bench-json]"));
    await p.locator("[data-testid=bench-result]").scrollIntoViewIfNeeded();
    await screenshot(p, "bench-result-light");
    const cli = JSON.parse((await cliRun).stdout);
    assert.equal(cli.calls + cli.not_sent, 100);
    assert.deepEqual([...shape(res)].sort(), [...shape(cli)].sort());

    // Stop: from the click to the summary on screen, measured in the page.
    await p.selectOption('[aria-label="load mode"]', "concurrency");
    await p.fill('[aria-label^="concurrency"]', "2");
    await p.fill('[aria-label="duration, s"]', "30");
    await p.click("text=Start load test");
    await p.waitForSelector("[data-testid=live-calls]");
    boost();
    const took = await p.evaluate(() => new Promise((resolve) => {
      const el = document.querySelector("[data-testid=bench-result]");
      const start = performance.now();
      new MutationObserver((_, obs) => { if (el.querySelector("[data-testid=bench-summary]")) { obs.disconnect(); resolve(performance.now() - start); } })
        .observe(el, { childList: true, subtree: true });
      [...document.querySelectorAll("button")].find((b) => b.textContent === "Stop").click();
    }));
    t.diagnostic(`stop took ${took.toFixed(0)} ms`);
    assert.ok(took < 1000, `stop took ${took} ms`);
    assert.match(await p.textContent("[data-testid=bench-result]"), /stopped early/);
    assert.ok(JSON.parse(await p.textContent("[data-testid=bench-json]")).duration_ms < 29000);

    // The server's limits, whatever the page's inputs say.
    const refused = async (re) => {
      await p.click("text=Start load test");
      await p.waitForFunction((re) => new RegExp(re).test(document.querySelector("[data-testid=bench-result]").textContent), re.source);
    };
    await p.fill('[aria-label^="concurrency"]', "1000");
    await refused(/concurrency 1000 is over the limit of 64/);
    await p.fill('[aria-label^="concurrency"]', "2");
    await p.fill('[aria-label="duration, s"]', "3600");
    await refused(/duration 1h0m0s is over the limit of 1m0s/);
    await p.selectOption('[aria-label="load mode"]', "rate");
    await p.fill('[aria-label="duration, s"]', "1");
    await p.fill('[aria-label^="rate, calls/s"]', "5000");
    await refused(/rate 5000\/s is over the limit of 2000\/s/);

    // After a reload the tab comes back in the Bench view, built before
    // its target is connected again, and runs on the connection made since.
    await p.fill('[aria-label^="rate, calls/s"]', "50");
    await p.reload();
    await p.waitForSelector("text=Start load test");
    await p.click("text=Start load test");
    await benchDone(p);
    const again = JSON.parse(await p.textContent("[data-testid=bench-json]"));
    assert.equal(again.calls + again.not_sent, 50);
  });
});

// raw sends one HTTP request with exactly these headers.
function raw(url, { method = "GET", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers, setHost: !headers.Host }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
    });
    req.on("upgrade", (res, socket) => { socket.destroy(); resolve(res.statusCode); });
    req.on("error", reject);
    req.end(body);
  });
}

describe("9. foreign Host, cross-site POST or WebSocket, missing token: 403", () => {
  test("refusals", async () => {
    const p = await fresh();
    const cookie = (await p.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    const o = info.origin;
    const ws = { Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==" };
    const post = { method: "POST", body: JSON.stringify({ target: info.plain, plaintext: true }) };
    // What the page itself does passes...
    assert.equal(await raw(o + "/api/info", { headers: { Cookie: cookie } }), 200);
    assert.equal(await raw(o + "/api/ws", { headers: { Cookie: cookie, Origin: o, ...ws } }), 101);
    assert.equal(await raw(o + "/api/connect", { ...post, headers: { Cookie: cookie, Origin: o, "Sec-Fetch-Site": "same-origin" } }), 200);
    // ...and the same with a foreign Host, from another site, or without
    // the token is refused.
    assert.equal(await raw(o + "/api/info", { headers: { Cookie: cookie, Host: "rebound.example:" + new URL(o).port } }), 403);
    assert.equal(await raw(o + "/", { headers: { Host: "rebound.example" } }), 403);
    assert.equal(await raw(o + "/api/connect", { ...post, headers: { Cookie: cookie, Origin: "http://evil.example", "Sec-Fetch-Site": "cross-site" } }), 403);
    assert.equal(await raw(o + "/api/connect", { ...post, headers: { Cookie: cookie, Origin: "http://evil.example" } }), 403);
    assert.equal(await raw(o + "/api/ws", { headers: { Cookie: cookie, Origin: "http://evil.example", ...ws } }), 403);
    assert.equal(await raw(o + "/api/info"), 403);
    assert.equal(await raw(o + "/api/ws", { headers: { Origin: o, ...ws } }), 403);
    assert.equal(await raw(o + "/"), 403);
    assert.equal(await raw(o + "/?token=wrong"), 403);
    // A page of another origin in the browser (the exposed page's): its
    // CSP keeps its scripts from reaching our API or WebSocket at all.
    const other = await fresh(info.exposedUrl, { own: true });
    const crossPost = await other.evaluate(async (o) => {
      try {
        const r = await fetch(o + "/api/connect", { method: "POST", mode: "no-cors", credentials: "include", body: "{}" });
        return r.type;
      } catch (e) { return "refused"; }
    }, o);
    assert.equal(crossPost, "refused"); // CSP connect-src 'self'
    const crossWS = await other.evaluate((o) => new Promise((resolve) => {
      try {
        const s = new WebSocket("ws" + o.slice(4) + "/api/ws");
        s.onopen = () => resolve("open");
        s.onerror = () => resolve("refused");
      } catch { resolve("refused"); }
    }), o);
    assert.equal(crossWS, "refused");
    const violations = await other.csp();
    assert.ok(violations.length >= 2 && violations.every((v) => v.startsWith("connect-src ")), JSON.stringify(violations));
    // These refusals are this test's own doing, not the page's.
    await other.evaluate(() => { window.__csp = []; });
    other.problems.console = other.problems.console.filter((m) => !/Content Security Policy|WebSocket connection to/.test(m));
    other.problems.offHost = other.problems.offHost.filter((u) => !u.startsWith(o) && !u.startsWith("ws" + o.slice(4)));
  });
});

describe("10. exposed mode: allowlist checked at dial time, metadata addresses blocked", () => {
  test("allowed, not allowed, blocked", async () => {
    const p = await fresh(info.exposedUrl);
    assert.match(await connectTo(p, info.plain), /connected to/);
    const refused = async (target, re) => {
      await p.fill("#target", target);
      await p.click("#connect");
      await p.waitForFunction((t) => document.querySelector("#status-line").textContent.startsWith(t + ":"), target);
      assert.match(await p.textContent("#status-line"), re);
    };
    await refused(info.tls, /not allowed: no --allow pattern matches it/);
    await refused("169.254.169.254:80", /blocked \(link-local or cloud metadata\)/);
    await refused("[fd00:ec2::254]:80", /blocked/);
    await refused("metadata.google.internal:80", /not allowed: no --allow pattern matches it/); // and not looked up
    // The allowed port on another loopback name resolves to the same
    // address but is not what the allowlist names.
    await refused("localhost:" + info.tls.split(":")[1], /not allowed/);
    // The allowed target still works after the refusals.
    await openMethod(p, ECHO);
    await setEditor(p, '{"number": "3"}');
    assert.equal(await sendAndWait(p), "OK (0)");
  });
});

describe("11. no CSP violations, console errors or off-host requests; screenshots in both themes", () => {
  for (const theme of ["light", "dark"]) {
    test(theme, async () => {
      const p = await fresh(info.url, { colorScheme: theme });
      // The page follows the system's scheme.
      assert.equal(await p.getAttribute("html", "data-theme"), theme);
      const luminance = await p.evaluate(() => {
        const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\d+/g).map(Number);
        return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
      });
      assert.ok(theme === "dark" ? luminance < 0.3 : luminance > 0.7, `${theme} background luminance ${luminance}`);
      await openMethod(p, ECHO);
      await setEditor(p, '{"item":{"name":"theme"},"failCode":3,"failMessage":"bad"}');
      assert.equal(await sendAndWait(p), "INVALID_ARGUMENT (3)");
      await screenshot(p, `request-${theme}`);
      await p.click("[data-testid=view-form]");
      await p.waitForSelector("[data-testid=form] .field");
      await screenshot(p, `form-${theme}`);
      await openMethod(p, "rpckit.test.v1.Test/Count");
      await setEditor(p, '{"count": 500}');
      assert.equal(await sendAndWait(p), "OK (0)");
      await screenshot(p, `stream-${theme}`);
      await p.click("[data-testid=view-bench]");
      await p.selectOption('[aria-label="load mode"]', "rate");
      await p.fill('[aria-label^="rate, calls/s"]', "50");
      await p.fill('[aria-label="duration, s"]', "1");
      await p.click("text=Start load test");
      await benchDone(p);
      await p.locator("[data-testid=bench-result]").scrollIntoViewIfNeeded();
      await screenshot(p, `bench-${theme}`);
      await p.click("#panel-toggle");
      await p.waitForSelector("[data-testid=history-list] li");
      await screenshot(p, `history-${theme}`);
      // The toggle switches to the other theme and the choice is kept.
      await p.click("#theme-toggle");
      const other = theme === "dark" ? "light" : "dark";
      assert.equal(await p.getAttribute("html", "data-theme"), other);
      await p.reload();
      await p.waitForSelector(".tab.active");
      assert.equal(await p.getAttribute("html", "data-theme"), other);
      // (afterEach checks CSP, console and requests of this page.)
    });
  }
});

describe("12. history and collections persist; grpcui files import", () => {
  test("persist across reloads, import grpcui history and examples", async () => {
    const p = await fresh();
    await openMethod(p, ECHO);
    await setEditor(p, '{"number": "777"}');
    assert.equal(await sendAndWait(p), "OK (0)");
    await p.fill('[aria-label="collection name"]', "smoke");
    await p.click("[data-testid=save]");
    await p.reload();
    await p.waitForSelector(".tab.active");
    await p.click("#panel-toggle");
    assert.match(await p.textContent("[data-testid=history-list]"), /OK\s*Echo/);
    await p.click("[data-testid=drawer-collections]");
    assert.match(await p.textContent("[data-testid=collections]"), /smoke[\s\S]*Echo/);
    // A saved request opens in a new tab with its body.
    await setEditor(p, "{}");
    await p.locator("[data-testid=collections] .what").first().click();
    await p.waitForFunction(() => window.rpckitApp.views.get(window.rpckitApp.active)?.tab.body.includes('"777"'));

    // grpcui's history (as its page keeps it) and examples (-examples).
    const file = path.join(OUT, "grpcui-history.json");
    writeFileSync(file, JSON.stringify([
      { service: "rpckit.test.v1.Test", method: "Echo", startTime: "2024-05-01T10:00:00Z", durationMS: 3.5,
        request: { metadata: [{ name: "x-echo-from", value: "grpcui" }], data: { number: "31" }, timeout_seconds: 2.5 } },
      { name: "an example", description: "", service: "rpckit.test.v1.Test", method: "Echo",
        request: { metadata: [], data: { item: { name: "from grpcui" } } } },
    ]));
    await p.click("[data-testid=drawer-history]");
    await p.setInputFiles("[data-testid=import-file]", file);
    await p.waitForFunction(() => /imported 1 history entries and 1 examples from grpcui/.test(document.querySelector("#status-line").textContent));
    await p.reload();
    await p.waitForSelector(".tab.active");
    await p.click("#panel-toggle");
    await p.click("[data-testid=drawer-collections]");
    await p.click("text=an example");
    await p.waitForFunction(() => window.rpckitApp.views.get(window.rpckitApp.active)?.tab.body.includes("from grpcui"));
    await p.click("[data-testid=drawer-history]");
    assert.equal(await p.locator("[data-testid=history-list] li").count(), 2);
    await p.locator("[data-testid=history-list] .what").first().click(); // grpcui's, imported on top
    await p.waitForFunction(() => window.rpckitApp.views.get(window.rpckitApp.active)?.tab.body.includes('"31"'));
    assert.equal(await p.inputValue('[aria-label="metadata key 1"]'), "x-echo-from");
    assert.equal(await p.inputValue('[aria-label="metadata value 1"]'), "grpcui");
    assert.equal(await p.inputValue("[data-testid=deadline]"), "2500ms");
    assert.equal(await sendAndWait(p), "OK (0)");
    assert.match(await p.textContent("[data-testid=response-json]"), /"x-echo-from=grpcui"/);
  });
});

describe("13. the connect form's protocol: Connect over h2c with an uploaded schema", () => {
  test("connect, call, a failure's details, the copied command", async () => {
    const p = await fresh();
    await p.fill("#target", info.connect);
    await p.setChecked("#use-tls", false);
    await p.setChecked("#use-reflection", false);
    await p.selectOption("#protocol", "connect");
    await p.setChecked("#use-h2c", true);
    await p.setInputFiles("#schema-files", info.protoset);
    await p.click("#connect");
    await p.waitForFunction((t) => document.querySelector("#status-line").textContent.startsWith(`connected to ${t}`), info.connect);
    assert.match(await p.textContent("#connections"), new RegExp(`${info.connect} \\(connect, h2c\\)`));
    await p.fill("#search", "Echo");
    const echoes = p.locator(`#method-list .m[data-method="${ECHO}"]`);
    await echoes.nth(1).click();
    await p.waitForSelector(`.tab.active button[title="${ECHO} @ ${info.connect}"]`);
    await setEditor(p, '{"number":"21"}');
    assert.equal(await sendAndWait(p), "OK (0)");
    assert.match(await p.textContent("[data-testid=response-json]"), /"number": "21"/);
    const resp = p.locator("[data-testid=response]");
    assert.match(await resp.locator('table[aria-label="Response headers"]').textContent(), /x-http-method\s*POST/);
    await setEditor(p, '{"failCode": 5, "failMessage": "no such item"}');
    assert.equal(await sendAndWait(p), "NOT_FOUND (5)");
    const details = (await resp.locator("[data-testid=details] pre").allTextContents()).map((t) => JSON.parse(t));
    assert.equal(details[0]["@type"], "type.googleapis.com/google.rpc.ErrorInfo");
    await p.click("[data-testid=copy-as]");
    await p.click("[data-testid=copy-call]");
    assert.match(await p.inputValue("[data-testid=command]"), /^rpckit call --protocol connect --http2-prior-knowledge --plaintext --protoset test\.protoset /);
  });
});

describe("14. Thrift targets: the IDL uploaded, a function called, an exception", () => {
  test("upload, browse, call, declared exception, a refused field", async () => {
    const p = await fresh();
    await p.fill("#target", info.thrift);
    await p.setChecked("#use-tls", false);
    await p.selectOption("#protocol", "thrift");
    assert.equal(await p.isVisible("#thrift-panel"), true);
    assert.equal(await p.isVisible("#use-tls"), true); // TLS settings are for Thrift too
    assert.equal(await p.isVisible("#tls-toggle"), true);
    await p.selectOption("#thrift-transport", "framed");
    await p.setInputFiles("#schema-files", info.thriftIdl);
    await p.click("#connect");
    await p.waitForFunction((t) => document.querySelector("#status-line").textContent.startsWith(`connected to ${t}`), info.thrift);
    assert.match(await p.textContent("#connections"), new RegExp(`${info.thrift} \\(thrift framed/binary\\)`));
    // The functions, with their doc comments and types.
    const missing = p.locator('#method-list .m[data-method="Ranking/Missing"]');
    assert.match(await missing.getAttribute("title"), /^Missing is not served: calls end in an application exception\.\n\nvoid Missing\(1: i32 id\)$/);
    const rank = p.locator('#method-list .m[data-method="Ranking/Rank"]');
    assert.equal(await rank.locator(".sig").textContent(), "(1: RankRequest request) → RankResponse");
    assert.match(await p.textContent('#method-list .m[data-method="Ranking/Record"]'), /oneway/);
    // The editor starts from the arguments' template.
    await rank.click();
    await p.waitForSelector(`.tab.active button[title="Ranking/Rank @ ${info.thrift}"]`);
    await p.waitForFunction(() => window.rpckitApp.views.get(window.rpckitApp.active)?.tab.body.includes('"candidate_count": 0'));
    assert.match(await editorText(p), /"device": "UNSPECIFIED"/);
    assert.equal(await p.isVisible("[data-testid=view-form]"), false);
    // Info header rows: shown, but off on the framed transport.
    assert.equal(await p.isDisabled('[aria-label="metadata key 1"]'), true);
    assert.match(await p.textContent("[data-testid=header-note]"), /need the header transport/);
    assert.match(await p.textContent("details.section pre"), /RankResponse Rank\(1: RankRequest request\) throws \(1: InvalidRequest invalid, 2: QuotaExceeded quota\)/);
    // A call: the result and the time it took.
    await setEditor(p, '{"request": {"context": {"user_id": "u1", "device": "TV"}, "candidate_count": 20, "limit": 2}}');
    assert.equal(await sendAndWait(p), "OK (0)");
    const result = JSON.parse(await p.textContent("[data-testid=response-json]"));
    assert.equal(result.items.length, 2);
    assert.equal(result.candidates_scored, 20);
    assert.match(await p.textContent("[data-testid=response] [data-testid=time]"), /^\d+\.\d ms$/);
    // A declared exception: its name and its JSON.
    await setEditor(p, '{"request": {"candidate_count": 5}}');
    assert.equal(await sendAndWait(p), "EXCEPTION InvalidRequest");
    assert.equal(await p.textContent("[data-testid=response] h3"), "Exception InvalidRequest");
    assert.equal(JSON.parse(await p.textContent("[data-testid=response-json]")).message, "ranking: invalid request: context: required");
    await screenshot(p, "thrift-exception");
    // A field the IDL refuses is named by its path.
    await setEditor(p, '{"request": {"limit": "many"}}');
    await p.waitForFunction(() => document.querySelector("[data-testid=input-error]").textContent.includes("at request.limit"));
  });
});
