// The least any HTTP service pays to answer a list page (npm run bench, lists on PostgreSQL): a bare
// node:http server with one pg pool, no framework, no API key, no validation, no log. GET /<name>?offset=N
// runs the page statement named <name> (the floor's fastest form: the page as one JSON text of arrays,
// planned once as Quire plans its pages), names each array's values again (an object literal compiled
// once, as Quire does) and answers `{ data: { results, totalRecords } }` in one write. Its p50 beside
// the raw SQL's is what the HTTP hop and the reply's JSON cost on this machine.
// Environment: DATABASE_URL, PORT, BARE_ORG_ID, BARE_PAGES (JSON: name -> { sql, fields }: the statement,
// $1 the organization and $2 the offset, answering one row of `total` and `items`; the arrays' names).
// Prints "ready" once listening.
"use strict";
const http = require("node:http");
const pg = require("pg");

/** An item's array named again: `{ "a": v[0], "b": v[1], ... }`. */
const reader = (fields) => new Function("v", `return { ${fields.map((f, i) => `${JSON.stringify(f)}: v[${i}]`).join(", ")} };`);
const pages = new Map(Object.entries(JSON.parse(process.env.BARE_PAGES)).map(([name, page]) => [name, { sql: page.sql, read: reader(page.fields) }]));
const orgId = process.env.BARE_ORG_ID;
// Generic plans from the connection's start (a statement queued in pg's "connect" event draws its deprecation warning).
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 4, options: "-c plan_cache_mode=force_generic_plan" });

http
  .createServer(async (req, res) => {
    try {
      const url = new URL(req.url, "http://bare");
      const name = url.pathname.slice(1);
      const page = pages.get(name);
      if (page === undefined) return void res.writeHead(404).end();
      const { rows } = await pool.query({ name, text: page.sql, values: [orgId, Number(url.searchParams.get("offset") ?? 0)] });
      const body = JSON.stringify({ data: { results: JSON.parse(rows[0].items).map(page.read), totalRecords: rows[0].total } });
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
    } catch (err) {
      console.error(err);
      res.writeHead(500).end();
    }
  })
  .listen(Number(process.env.PORT), "127.0.0.1", () => console.log("ready"));
