// Embedded signing in a real browser: a partner app on another origin frames the signing URL with
// /embed.js (or the React component), the signer passes an email passcode inside the frame and
// signs, and the partner page receives the completion message (docs/contract.md "Embedded signing"). Framing by
// an origin outside allowedFrameAncestors gives a blank frame; single-use links work once.
import https from "node:https";
import type net from "node:net";
import path from "node:path";
import { build } from "esbuild";
import { SignJWT } from "jose";
import type { Frame, Page } from "@playwright/test";
import { as } from "../tests/support/api";
import { HS_SECRET, latestMailTo, orgWith, prepareDoc } from "../tests/support/embedded";
import { testCertificates } from "../tests/support/https-receiver";
import type { QuireTestServer } from "../tests/support/quire-server";
import { expect, test } from "./fixtures";
import { uniqueEmail } from "./esign";

// The partner app is HTTPS (return URLs must be); its certificate comes from a throwaway test CA.
test.use({ ignoreHTTPSErrors: true });

interface Received {
  embed: number;
  callback: string;
  message: Record<string, unknown>;
}

declare global {
  interface Window {
    received: Received[];
  }
}

const ROOT = path.resolve(__dirname, "..");

/** A tiny React app rendering <QuireSigning> for ?url=, built from lib/sdk/react.tsx. */
async function reactHostBundle(): Promise<string> {
  const out = await build({
    stdin: {
      contents: `
        import { createRoot } from "react-dom/client";
        import { QuireSigning } from "./lib/sdk/react";
        window.received = [];
        const url = new URLSearchParams(location.search).get("url");
        const record = (callback) => (message) => { window.received.push({ embed: 0, callback, message }); };
        createRoot(document.getElementById("root")).render(
          <QuireSigning url={url} height={900} onCompleted={record("onCompleted")} onDeclined={record("onDeclined")} onError={record("onError")} />
        );`,
      resolveDir: ROOT,
      loader: "tsx",
    },
    bundle: true,
    format: "iife",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    write: false,
    logLevel: "silent",
  });
  return out.outputFiles[0].text;
}

/**
 * A partner app: /host frames every ?url= with /embed.js and records what each embed's callbacks
 * receive; /react does the same with the React component; /done is a return page.
 */
async function startPartnerApp(quireBase: string): Promise<{ origin: string; close: () => Promise<void> }> {
  const certs = testCertificates();
  const reactBundle = await reactHostBundle();
  const server = https.createServer({ cert: certs.certPem, key: certs.keyPem }, (req, res) => {
    const url = new URL(req.url ?? "/", "https://partner.invalid");
    const html = (body: string) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner app</title></head><body>${body}</body></html>`);
    };
    if (url.pathname === "/host") {
      return html(`<h1>Partner app</h1><div id="frames"></div>
        <script src="${quireBase}/embed.js"></script>
        <script>
          window.received = [];
          new URLSearchParams(location.search).getAll("url").forEach(function (signingUrl, i) {
            var box = document.createElement("div");
            box.id = "embed-" + i;
            document.getElementById("frames").appendChild(box);
            var record = function (callback) { return function (message) { window.received.push({ embed: i, callback: callback, message: message }); }; };
            Quire.mount("#embed-" + i, { url: signingUrl, height: 900, onCompleted: record("onCompleted"), onDeclined: record("onDeclined"), onError: record("onError") });
          });
        </script>`);
    }
    if (url.pathname === "/react") return html(`<h1>Partner app (React)</h1><div id="root"></div><script src="/react-host.js"></script>`);
    if (url.pathname === "/react-host.js") {
      res.writeHead(200, { "content-type": "text/javascript" });
      return res.end(reactBundle);
    }
    if (url.pathname === "/done") return html(`<h1>Back in the partner app</h1><p id="query">${url.searchParams.get("agreement") ?? ""}</p>`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return { origin: `https://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function signingUrl(
  quire: QuireTestServer,
  org: Awaited<ReturnType<typeof orgWith>>,
  documentId: string,
  body: Record<string, unknown>,
): Promise<string> {
  const r = await as(quire.baseUrl, org, "contributor")(`/esign/documents/${documentId}/signing-url`, { method: "POST", body });
  expect(r.status, r.text).toBe(200);
  return r.json.data.results.url as string;
}

async function prepared(quire: QuireTestServer, org: Awaited<ReturnType<typeof orgWith>>, recipient: Record<string, unknown>) {
  const prep = await prepareDoc(quire.baseUrl, org, [recipient]);
  expect(prep.status, prep.text).toBe(200);
  return { documentId: prep.json.data.documentId as string, recipientId: prep.json.data.recipients[0].id as string };
}

const hostUrl = (origin: string, ...urls: string[]) => `${origin}/host?${urls.map((u) => `url=${encodeURIComponent(u)}`).join("&")}`;

/** The Quire frame of embed `i` on the partner page. */
function childFrame(page: Page, i = 0): Frame {
  const frame = page.frames().filter((f) => f.parentFrame() === page.mainFrame())[i];
  if (!frame)
    throw new Error(
      `no frame ${i}; frames: ${page
        .frames()
        .map((f) => f.url())
        .join(", ")}`,
    );
  return frame;
}

const received = (page: Page) => page.evaluate(() => window.received);

let partner: { origin: string; close: () => Promise<void> };
let stranger: { origin: string; close: () => Promise<void> };

test.beforeAll(async ({ quire }) => {
  partner = await startPartnerApp(quire.baseUrl);
  // Same app, another port: another origin, not in the allow-list.
  stranger = await startPartnerApp(quire.baseUrl);
});

test.afterAll(async () => {
  await partner?.close();
  await stranger?.close();
});

test("a partner page frames the signing URL with /embed.js: email passcode, sign, signing_complete; reopened: already_signed", async ({ page, quire }) => {
  const org = await orgWith(quire, { enabled: true, allowedFrameAncestors: [partner.origin] });
  const email = uniqueEmail("ada");
  const { documentId, recipientId } = await prepared(quire, org, { name: "Ada Embed", email, identityVerification: { mode: "otp", channel: "email" } });
  const url = await signingUrl(quire, org, documentId, { recipientId });

  await page.goto(hostUrl(partner.origin, url));
  const frame = page.frameLocator("#embed-0 iframe");
  await expect(page.locator("#embed-0 iframe")).toHaveAttribute("referrerpolicy", "origin");
  await expect(frame.getByRole("heading", { name: "Confirm it is you" })).toBeVisible();

  // Anything not from the frame's window on Quire's origin is ignored: here the partner page itself.
  await page.evaluate(
    (id) => window.postMessage({ type: "esign:completed", documentId: id, status: "completed", event: "signing_complete", scope: "recipient" }, "*"),
    documentId,
  );

  await frame.getByRole("button", { name: "Send me a code" }).click();
  await expect(frame.getByText(/We sent a 6-digit code to/)).toBeVisible();
  const mail = await latestMailTo(quire.baseUrl, org, email, "signing_passcode");
  const code = /\b(\d{6})\b/.exec(mail?.text ?? "")?.[1];
  expect(code, "passcode in the outbox").toBeTruthy();
  await frame.getByLabel("Code").fill(code!);
  await frame.getByRole("button", { name: "Continue" }).click();

  await expect(frame.getByRole("img", { name: "Page 1 of 1" })).toBeVisible();
  await frame.getByRole("textbox", { name: /^Text/ }).fill("Agreed in the partner app");
  await frame.getByRole("button", { name: "Finish signing" }).click();
  await expect(frame.getByRole("heading", { name: "You have signed" })).toBeVisible({ timeout: 30_000 }); // sealing the PDF takes a moment

  const completed = { type: "esign:completed", documentId, status: "completed", event: "signing_complete", scope: "recipient" };
  await expect.poll(() => received(page)).toEqual([{ embed: 0, callback: "onCompleted", message: completed }]);
  const status = await as(quire.baseUrl, org, "contributor")(`/esign/documents/${documentId}/status`);
  expect(status.json.data.status).toBe("completed");

  // Reopened next to a second, unsigned embed from the same Quire origin: the already_signed
  // message reaches the first embed only (the second's source check refuses the first's window).
  const other = await prepared(quire, org, { name: "Bo Embed", email: uniqueEmail("bo"), identityVerification: { mode: "otp", channel: "email" } });
  await page.goto(hostUrl(partner.origin, url, await signingUrl(quire, org, other.documentId, { recipientId: other.recipientId })));
  await expect(page.frameLocator("#embed-0 iframe").getByRole("heading", { name: "You have signed" })).toBeVisible();
  await expect(page.frameLocator("#embed-1 iframe").getByRole("heading", { name: "Confirm it is you" })).toBeVisible();
  await expect.poll(() => received(page)).toEqual([{ embed: 0, callback: "onCompleted", message: { ...completed, event: "already_signed" } }]);
});

test("an origin outside allowedFrameAncestors gets a blank frame; the same URL works where allowed", async ({ page, quire }) => {
  const org = await orgWith(quire, { enabled: true, allowedFrameAncestors: [partner.origin] });
  const { documentId, recipientId } = await prepared(quire, org, { name: "Cy Blocked", email: uniqueEmail("cy") });
  const url = await signingUrl(quire, org, documentId, { recipientId });

  const signingPage = page.waitForResponse((r) => r.url().startsWith(`${quire.baseUrl}/sign/`) && !r.url().includes("/sign/open"));
  await page.goto(hostUrl(stranger.origin, url));
  const response = await signingPage;
  expect(response.status()).toBe(200);
  expect(response.headers()["content-security-policy"]).toBe(`frame-ancestors ${partner.origin}`);
  // The browser refuses to render it: the frame ends on Chromium's error page, with no signing content.
  await expect.poll(() => childFrame(page).url()).toMatch(/^chrome-error:/);
  await expect(page.frameLocator("#embed-0 iframe").getByRole("img", { name: "Page 1 of 1" })).toHaveCount(0);
  await expect(page.frameLocator("#embed-0 iframe").getByText("Finish signing")).toHaveCount(0);
  expect(await received(page)).toEqual([]);

  // The same URL on the allowed origin renders the document.
  await page.goto(hostUrl(partner.origin, url));
  await expect(page.frameLocator("#embed-0 iframe").getByRole("img", { name: "Page 1 of 1" })).toBeVisible();
  await expect(page.frameLocator("#embed-0 iframe").getByRole("button", { name: "Finish signing" })).toBeVisible();
});

test("an external_idv link opens once in the frame, then shows the 410 page", async ({ page, quire }) => {
  const org = await orgWith(quire, { enabled: true, allowExternalIdv: true, allowedFrameAncestors: [partner.origin] });
  const email = uniqueEmail("ida");
  const { documentId, recipientId } = await prepared(quire, org, {
    name: "Ida Idv",
    email,
    identityVerification: { mode: "external_idv", provider: "acme-idv", maxAgeMinutes: 10 },
  });
  const now = Math.floor(Date.now() / 1000);
  const identityAssertion = await new SignJWT({ iss: "acme-idv", email, iat: now - 30, jti: `e2e-${now}-${Math.random()}` })
    .setProtectedHeader({ alg: "HS256" })
    .sign(new TextEncoder().encode(HS_SECRET));
  const url = await signingUrl(quire, org, documentId, { recipientId, identityAssertion });

  await page.goto(hostUrl(partner.origin, url));
  const frame = page.frameLocator("#embed-0 iframe");
  await expect(frame.getByRole("img", { name: "Page 1 of 1" })).toBeVisible();
  await expect(frame.getByRole("button", { name: "Finish signing" })).toBeVisible();

  const reopened = page.waitForResponse((r) => r.url().includes("/sign/open"));
  await page.goto(hostUrl(partner.origin, url));
  expect((await reopened).status()).toBe(410);
  await expect(frame.getByRole("heading", { name: "This signing link was already used" })).toBeVisible();
  await expect(frame.getByRole("button", { name: "Finish signing" })).toHaveCount(0);
});

test("the React component: after signing, the frame goes to the stored returnUrl on the partner origin", async ({ page, quire }) => {
  const org = await orgWith(quire, { enabled: true, allowedFrameAncestors: [partner.origin] });
  const { documentId, recipientId } = await prepared(quire, org, { name: "Rae Return", email: uniqueEmail("rae") });
  const returnUrl = `${partner.origin}/done?agreement=${documentId}`;
  const url = await signingUrl(quire, org, documentId, { recipientId, returnUrl });
  expect(url).not.toContain("done");

  await page.goto(`${partner.origin}/react?url=${encodeURIComponent(url)}`);
  const frame = page.frameLocator("[data-quire-signing] iframe");
  await frame.getByRole("textbox", { name: /^Text/ }).fill("Signed through React");
  await frame.getByRole("button", { name: "Finish signing" }).click();

  await expect(frame.getByRole("heading", { name: "Back in the partner app" })).toBeVisible({ timeout: 30_000 });
  expect(childFrame(page).url()).toBe(returnUrl);
  await expect(frame.locator("#query")).toHaveText(documentId);
  await expect
    .poll(() => received(page))
    .toEqual([
      {
        embed: 0,
        callback: "onCompleted",
        message: { type: "esign:completed", documentId, status: "completed", event: "signing_complete", scope: "recipient" },
      },
    ]);
});

test("/embed.js is a cacheable, CORS-safe script built from the embed source", async ({ quire }) => {
  const res = await fetch(`${quire.baseUrl}/embed.js`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
  expect(res.headers.get("access-control-allow-origin")).toBe("*");
  expect(res.headers.get("cache-control")).toMatch(/public, max-age=\d+/);
  const etag = res.headers.get("etag");
  expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
  const body = await res.text();
  expect(body).toContain("var Quire=");
  expect(body).toContain("esign:completed");
  const again = await fetch(`${quire.baseUrl}/embed.js`, { headers: { "if-none-match": etag! } });
  expect(again.status).toBe(304);
});
