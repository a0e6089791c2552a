// The reminder schedule lives in the database: after a hard restart (SIGKILL, no shutdown) a reminder
// already sent is not sent again, and the next one still comes on time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailsOf, prepareDoc, setClock } from "../support/embedded";
import { startQuireServer, type RunningQuire, type TestDatabase } from "../support/quire-server";

const HOUR = 3600_000;
const DAY = 24 * HOUR;
let quire: RunningQuire;

beforeAll(async () => {
  quire = await startQuireServer((process.env.QUIRE_TEST_DB ?? "pglite") as TestDatabase);
});

afterAll(async () => {
  await quire?.stop();
});

async function remindersAfter(count: number, ms = 20_000) {
  const until = Date.now() + ms;
  let mails = await mailsOf(quire.server.baseUrl, quire.server.seed, "signing_reminder");
  while (mails.length < count && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 250));
    mails = await mailsOf(quire.server.baseUrl, quire.server.seed, "signing_reminder");
  }
  // A little longer: nothing more comes.
  await new Promise((r) => setTimeout(r, 2500));
  return mailsOf(quire.server.baseUrl, quire.server.seed, "signing_reminder");
}

describe(`reminders across a hard restart (${process.env.QUIRE_TEST_DB ?? "pglite"})`, () => {
  it("sends each reminder once, before and after the restart", async () => {
    const sent = await prepareDoc(quire.server.baseUrl, quire.server.seed, [{ name: "Ada", email: "ada@example.com" }], {
      sendEmail: "true",
      reminderDays: "1",
    });
    expect(sent.status, sent.text).toBe(200);

    await setClock(quire.server, DAY + HOUR);
    expect((await remindersAfter(1)).map((m) => m.to)).toEqual(["ada@example.com"]);

    await quire.restart({ hard: true });
    // The new process starts with the real time: move it to the same moment again; nothing is due.
    await setClock(quire.server, DAY + HOUR);
    expect(await remindersAfter(2, 3000)).toHaveLength(1);

    await setClock(quire.server, 2 * DAY + 2 * HOUR);
    expect((await remindersAfter(2)).map((m) => m.to)).toEqual(["ada@example.com", "ada@example.com"]);
  }, 180_000);
});
