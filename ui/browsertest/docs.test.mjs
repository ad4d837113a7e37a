// The gateway's --docs page: `rpckit gateway --docs` in front of the ui
// suite's plaintext fixture serves Swagger UI from rpckit's own files
// under its Content-Security-Policy; the page must list every route of the
// gateway, with no CSP violation, console error or request off its host.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { RPCKIT, launch, leave, newTab, prepare, screenshot, startServer } from "./lib.mjs";

const run = promisify(execFile);
let info, browser, gateway;

// startGateway runs rpckit gateway --docs on a free loopback port and
// resolves to its base URL once it has loaded its routes.
async function startGateway(upstream) {
  const proc = spawn(RPCKIT, ["gateway", "--upstream", upstream, "--plaintext", "--listen", "127.0.0.1:0",
    "--docs", "--quiet", "--reload", "0"], { stdio: ["ignore", "ignore", "pipe"] });
  const rl = createInterface({ input: proc.stderr });
  let timer;
  const base = await new Promise((resolve, reject) => {
    rl.on("line", (l) => { const m = l.match(/^rpckit gateway: (http:\/\/\S+) -> /); if (m) resolve(m[1]); });
    proc.once("exit", (code) => reject(new Error(`rpckit gateway exited with ${code}`)));
    timer = setTimeout(() => reject(new Error("rpckit gateway did not start in 30 s")), 30000);
  }).finally(() => clearTimeout(timer));
  for (let i = 0; i < 300; i++) {
    const r = await fetch(base + "/readyz").catch(() => null);
    if (r && r.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  gateway = { proc, base };
  return base;
}

before(async () => {
  prepare();
  info = await startServer();
  await startGateway(info.plain);
  browser = await launch();
});

after(async () => {
  if (browser) await browser.close();
  if (gateway) {
    const exited = new Promise((r) => gateway.proc.once("exit", r));
    gateway.proc.kill("SIGINT");
    await exited;
  }
  if (info) await info.stop();
});

// routePattern matches the OpenAPI path of a route template: literals as
// they are, each "*" or "**" (alone or inside a variable) as a parameter.
function routePattern(template) {
  const expanded = template.replace(/\{[^}=]+(?:=([^}]*))?\}/g, (_, inner) => inner ?? "*");
  const parts = expanded.split(/(\*\*|\*)/).map((p) =>
    p === "*" || p === "**" ? "\\{[^}/]+\\}" : p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp("^" + parts.join("") + "$");
}

describe("13. the gateway's --docs page lists every route", () => {
  test("every route of --print-routes is an operation on the page", async () => {
    const { stdout } = await run(RPCKIT, ["gateway", "--upstream", info.plain, "--plaintext", "--print-routes"]);
    const routes = stdout.trim().split("\n").slice(1).map((l) => l.trim().split(/\s+/));
    assert.ok(routes.length >= 5, `routes: ${stdout}`);

    const page = await newTab(browser);
    const origin = new URL(gateway.base).origin;
    page.onHost = (u) => u.startsWith(origin + "/") || u.startsWith("data:") || u === "about:blank";
    const resp = await page.goto(gateway.base + "/docs/");
    assert.match(resp.headers()["content-security-policy"], /script-src 'self'/);
    await page.waitForSelector(".opblock-summary-path");
    const shown = await page.$$eval(".opblock", (els) => els.map((el) => [
      el.querySelector(".opblock-summary-method").textContent.trim(),
      el.querySelector(".opblock-summary-path").getAttribute("data-path"),
    ]));
    assert.equal(shown.length, routes.length, `the page shows ${JSON.stringify(shown)}\nthe gateway has ${stdout}`);
    for (const [method, template] of routes) {
      const re = routePattern(template);
      assert.ok(shown.some(([m, p]) => m === method && re.test(p)), `${method} ${template} is not on the page: ${JSON.stringify(shown)}`);
    }

    // "Try it out" calls the gateway from the page.
    const echo = page.locator(".opblock", { has: page.locator('.opblock-summary-path[data-path="/rpckit.test.v1.Test/Echo"]') });
    await echo.locator(".opblock-summary").click();
    await echo.locator(".try-out__btn").click();
    await echo.locator("textarea.body-param__text").fill('{"number":"5"}');
    await echo.locator(".execute").click();
    const live = echo.locator(".live-responses-table tbody .response-col_status").first();
    await live.waitFor();
    assert.equal((await live.textContent()).trim(), "200");
    assert.match(await echo.locator(".live-responses-table tbody .microlight").first().textContent(), /"number": "5"/);
    await screenshot(page, "gateway-docs");

    assert.deepEqual(await page.csp(), [], "CSP violations");
    await leave(page);
    assert.deepEqual(page.problems.console, [], "console errors");
    assert.deepEqual(page.problems.pageErrors, [], "page errors");
    assert.deepEqual(page.problems.offHost, [], "requests off the host");
    await page.context().close();
  });
});
