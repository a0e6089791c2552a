// npm run bench -- --only soak [--soak-minutes N]: issue 17 goal 6. A steady mix of API requests (lists,
// an authenticated probe, signing URLs) at a fixed rate, with a deliverable converted to PDF every few
// seconds, for N minutes (default 10) on loopback; the server's resident memory (Next.js and its
// LibreOffice pool) is sampled every 10 s. Memory must level off: the figure is the growth from the
// warmed-up level (the third tenth of the run) to its last minute.
import os from "node:os";
import autocannon from "autocannon";
import type { SeedResult } from "@/lib/orgs/seed";
import { prepareDoc } from "../tests/support/embedded";
import { runSeed, startQuireServer, type TestDatabase } from "../tests/support/quire-server";
import { CONTRACT_VARIABLES, createBenchWebhook, DB_LABELS, recordFigure, serverRssMb } from "./bench-shared";
import { fillWorkspace } from "../tests/support/workspace";

const RATE = 50;
const SAMPLE_MS = 10_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchSoak(kind: TestDatabase, minutes: number): Promise<void> {
  console.log(`\n## Memory soak on ${kind === "pglite" ? "embedded PGlite" : "PostgreSQL"}: ${minutes} min at ${RATE} requests/s; ${os.cpus().length} cores`);
  let seed!: SeedResult;
  const { server, stop } = await startQuireServer(kind, {
    extraEnv: { LOG_LEVEL: "info" },
    async beforeStart(env) {
      seed = runSeed(env, ["--rate-limit", "1000000"]);
      await createBenchWebhook(env, seed.orgId, ["https://127.0.0.1:9/quire"], (client) =>
        fillWorkspace(client, seed.orgId, { templates: 1_000, deliverables: 2_000 }),
      );
    },
  });
  const samples: { at: number; mb: number }[] = [];
  try {
    const { baseUrl } = server;
    const headers = { authorization: `Bearer ${seed.keys.administrator}`, "x-service-org-id": seed.orgId, accept: "application/json" };
    const prep = await prepareDoc(
      baseUrl,
      seed,
      [1, 2].map((n) => ({ name: `Signer ${n}`, email: `soak${n}@example.com`, signingOrder: 1 })),
      { documentName: "Soak" },
    );
    if (prep.status !== 200) throw new Error(`setup: prepare-for-signing: ${prep.status} ${prep.text}`);
    const documentId = prep.json.data.documentId as string;
    const recipientId = prep.json.data.recipients[0].id as string;
    const found = await fetch(`${baseUrl}/template-item?type=template&query=services%20agreement`, { headers }).then((r) => r.json());
    const templateId = found.data.results[0].id as string;

    const started = Date.now();
    const sample = () => samples.push({ at: (Date.now() - started) / 60_000, mb: serverRssMb() });
    sample();
    const sampler = setInterval(() => {
      sample();
      const last = samples[samples.length - 1];
      process.stderr.write(`  soak: ${last.at.toFixed(1)}/${minutes} min, RSS ${last.mb.toFixed(0)} MB   \r`);
    }, SAMPLE_MS);
    // A deliverable with its PDF every 5 s keeps the converter pool (and its recycling) in the picture.
    let converting = true;
    const conversions = (async () => {
      let made = 0;
      while (converting) {
        const res = await fetch(`${baseUrl}/v1/deliverable`, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ name: `Soak ${made}`, templateId, variables: CONTRACT_VARIABLES }),
        });
        if (res.status !== 200) throw new Error(`soak: create deliverable: ${res.status} ${await res.text()}`);
        made++;
        await new Promise((r) => setTimeout(r, 5_000));
      }
      return made;
    })();
    const json = { ...headers, "content-type": "application/json" };
    const result = await new Promise<autocannon.Result>((resolve, reject) =>
      autocannon(
        {
          url: baseUrl,
          connections: 10,
          overallRate: RATE,
          duration: minutes * 60,
          requests: [
            { method: "GET", path: "/v1/deliverable?limit=100&showTags=true", headers },
            { method: "GET", path: "/template-item?type=template&limit=100&column0=name&order0=asc", headers },
            { method: "GET", path: "/esign/documents?limit=100", headers },
            { method: "GET", path: "/api/whoami", headers },
            { method: "POST", path: `/esign/documents/${documentId}/signing-url`, headers: json, body: JSON.stringify({ recipientId }) },
          ],
        },
        (err, r) => (err ? reject(err) : resolve(r)),
      ),
    );
    converting = false;
    const made = await conversions;
    clearInterval(sampler);
    sample();
    process.stderr.write("\n");
    const failed = result.errors + result.non2xx;
    console.log(`  ${result.requests.total} requests (${failed} failed), ${made} deliverables with PDF`);
    if (failed > result.requests.total * 0.01) throw new Error(`soak: ${failed} of ${result.requests.total} requests failed`);
  } finally {
    await stop();
  }
  // Warmed up: the samples of the third tenth of the run (minutes 2-3 of 10), once caches and pools have filled.
  const [from, to] = [minutes * 0.2, minutes * 0.3];
  const warm = median(samples.filter((s) => s.at >= from && s.at <= to).map((s) => s.mb));
  const end = median(samples.slice(-6).map((s) => s.mb));
  const peak = Math.max(...samples.map((s) => s.mb));
  console.log(
    `\n| minute | RSS MB |\n|---:|---:|\n${samples
      .filter((_, i) => i % 6 === 0 || i === samples.length - 1)
      .map((s) => `| ${s.at.toFixed(1)} | ${s.mb.toFixed(0)} |`)
      .join("\n")}`,
  );
  console.log(`\nWarmed up (minute ${from}-${to}, median) ${warm.toFixed(0)} MB; last minute (median) ${end.toFixed(0)} MB; peak ${peak.toFixed(0)} MB.`);
  const db = DB_LABELS[kind];
  recordFigure({
    section: "memory",
    db,
    measure: `server RSS over a ${minutes}-minute soak: last minute vs warmed up (peak ${peak.toFixed(0)} MB)`,
    quire: end,
    unit: "MB",
    floor: warm,
    floorLabel: `minute ${from}-${to}`,
    goal: { op: "<=", value: 1.1, on: "ratio" },
  });
}
