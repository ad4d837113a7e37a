// Shared setup of the browser suite: the programs it runs (the ui
// package's test binary, which serves the fixtures and the pages with
// -serve; rpckit and grpcurl for the copied commands), Debian's chromium
// driven by playwright-core, and watchers for console errors, CSP
// violations, long tasks and requests off the page's host.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(here, "../..");
export const OUT = process.env.UI_TEST_OUT || path.join(here, "out");
const SERVER = process.env.UI_TEST_SERVER || path.join(OUT, "uitest");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
export const RPCKIT = process.env.UI_TEST_RPCKIT || path.join(OUT, "bin", "rpckit");
const CACHE = process.env.RPCKIT_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "rpckit");
export const GRPCURL = process.env.UI_TEST_GRPCURL || path.join(CACHE, "bin", "grpcurl");
export const GRPCURL_VERSION = "v1.9.4";

// prepare builds what is missing: `make browser` builds the test server
// and rpckit before every run and `make deps` installs grpcurl, so this
// only matters for a bare `npm test`.
export function prepare() {
  const go = (...args) => execFileSync("go", args, { cwd: REPO, stdio: "inherit" });
  if (!existsSync(SERVER)) go("test", "-c", "-o", SERVER, "./ui");
  if (!existsSync(RPCKIT)) go("build", "-o", RPCKIT, "./cmd/rpckit");
  if (!existsSync(GRPCURL)) {
    execFileSync("go", ["install", `github.com/fullstorydev/grpcurl/cmd/grpcurl@${GRPCURL_VERSION}`], {
      cwd: os.tmpdir(), stdio: "inherit", env: { ...process.env, GOBIN: path.dirname(GRPCURL) },
    });
  }
}

// startServer runs the fixtures and the pages; it resolves to the JSON
// line they print (url, origin, exposedUrl, plain, tls, mtls, wide, ca,
// recorder ...).
export async function startServer() {
  const proc = spawn(SERVER, ["-serve"], { stdio: ["pipe", "pipe", "inherit"] });
  const rl = createInterface({ input: proc.stdout });
  let timer;
  const line = await new Promise((resolve, reject) => {
    rl.once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`ui test server exited with ${code}`)));
    timer = setTimeout(() => reject(new Error("ui test server did not start in 30 s")), 30000);
  }).finally(() => clearTimeout(timer));
  const info = JSON.parse(line);
  info.stop = () => new Promise((resolve) => {
    if (proc.exitCode !== null) return resolve();
    const kill = setTimeout(() => proc.kill("SIGKILL"), 3000);
    proc.once("exit", () => { clearTimeout(kill); resolve(); });
    proc.stdin.end();
  });
  return info;
}

// launch starts Debian's chromium headless with its background traffic
// (updates, sync, field trials, QUIC) turned off; playwright gives each
// launch a fresh --user-data-dir of its own and removes it at close. Every
// host but this one goes to a proxy that is not there (chromium never
// proxies loopback), so nothing leaves the machine even by mistake; the
// pages' own requests are watched as well.
export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--proxy-server=http://127.0.0.1:9"],
  });
}

// boost raises the CPU priority of every thread of this runner and of
// every process it started (the servers, chromium and its renderers) above the
// machine's other work, where that is allowed (as root): the suite's timed
// checks (no long task over 200 ms, cancel and stop within 1 s) then
// measure the page rather than how busy a shared machine is. Chromium sets
// its renderers' priorities itself as pages open, show and load, so
// keepBoosted runs this four times a second, and the tests run it again
// just before each timed check.
export function boost() {
  const children = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    let stat;
    try { stat = readFileSync(`/proc/${d}/stat`, "utf8"); } catch { continue; }
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(d));
  }
  const todo = [process.pid]; // this runner (playwright's driver) too
  while (todo.length) {
    const pid = todo.pop();
    todo.push(...(children.get(pid) || []));
    let tasks = [];
    try { tasks = readdirSync(`/proc/${pid}/task`); } catch { continue; }
    for (const tid of tasks) {
      try { os.setPriority(Number(tid), BOOST); } catch (e) {
        if (e.info && (e.info.code === "EACCES" || e.info.code === "EPERM")) return; // not allowed here
      }
    }
  }
}
const BOOST = -10;

// keepBoosted runs boost until the returned function is called.
export function keepBoosted() {
  boost();
  const timer = setInterval(boost, 250);
  return () => clearInterval(timer);
}

const WATCH = () => {
  window.__csp = [];
  window.__longTasks = [];
  document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
    .observe({ type: "longtask", buffered: true });
};

// A tab is a page in a context of its own, watched for console errors,
// page errors and requests off the host of the URL it last visited. A
// fresh context and renderer cost more CPU than all else a test does on a
// small machine, so a test suite keeps one tab and visits it anew for each
// test (see visit); opts.clipboard grants the clipboard to the given
// origins.
export async function newTab(browser, opts = {}) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, acceptDownloads: true });
  for (const origin of opts.clipboard || []) await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  await context.addInitScript(WATCH);
  const page = await context.newPage();
  page.setDefaultTimeout(15000);
  page.cdp = await context.newCDPSession(page);
  page.problems = { console: [], offHost: [], pageErrors: [] };
  page.onHost = (u) => u === "about:blank";
  page.on("console", (m) => { if (m.type() === "error") page.problems.console.push(m.text()); });
  page.on("pageerror", (e) => page.problems.pageErrors.push(String(e)));
  page.on("request", (r) => { if (!page.onHost(r.url())) page.problems.offHost.push(r.url()); });
  page.on("websocket", (ws) => { if (!page.onHost(ws.url())) page.problems.offHost.push(ws.url()); });
  page.csp = () => page.evaluate(() => window.__csp);
  return page;
}

// leave ends what the tab shows (its streams and load tests end with its
// WebSocket) and empties the storage of its origin. The page saves its
// state as it goes (pagehide), so the storage is emptied from the page
// itself, and further writes are dropped, before it goes: a clear from
// outside could land before that last write.
export async function leave(page) {
  if (page.url() === "about:blank") return;
  await page.evaluate(() => {
    localStorage.clear();
    sessionStorage.clear();
    Storage.prototype.setItem = () => {};
  }).catch(() => {}); // a page that did not load: nothing was stored
  await page.goto("about:blank");
}

// visit starts a test in a tab: whatever it showed is left, its storage
// and cookies are cleared, the problems seen so far forgotten, and the
// page's URL (with its token) opened in the colour scheme
// opts.colorScheme (default light).
export async function visit(page, url, opts = {}) {
  await leave(page);
  const origin = new URL(url).origin;
  await page.cdp.send("Storage.clearDataForOrigin", { origin, storageTypes: "all" });
  await page.context().clearCookies();
  const wsOrigin = "ws" + origin.slice(4);
  page.onHost = (u) => u.startsWith(origin + "/") || u.startsWith(wsOrigin + "/") || u.startsWith("data:") || u.startsWith("blob:") || u === "about:blank";
  page.problems = { console: [], offHost: [], pageErrors: [] };
  await page.emulateMedia({ colorScheme: opts.colorScheme || "light" });
  await page.goto(url);
  await page.waitForSelector("#search");
  boost();
  return page;
}

// openPage opens url in a tab of its own (close its context when done).
export async function openPage(browser, url, opts = {}) {
  return visit(await newTab(browser, opts), url, opts);
}

export async function screenshot(page, name) {
  mkdirSync(path.join(OUT, "screenshots"), { recursive: true });
  await page.screenshot({ path: path.join(OUT, "screenshots", name + ".png") });
}

// openMethod waits for the method to be listed and opens it from the
// sidebar's search.
export async function openMethod(page, method) {
  await page.fill("#search", method);
  await page.waitForSelector(`#method-list .m[data-method="${method}"]`);
  await page.press("#search", "Enter");
  await page.waitForSelector(`.tab.active button[title^="${method} @"]`);
}

// setEditor replaces the raw JSON in the active tab's editor.
export async function setEditor(page, text) {
  await page.evaluate((t) => {
    const app = window.rpckitApp;
    app.views.get(app.active).setBody(t);
  }, text);
}

export async function editorText(page) {
  return page.evaluate(() => window.rpckitApp.views.get(window.rpckitApp.active).tab.body);
}
