-- Every API request updates its key's row in rate_limit_window. The update changes no indexed column,
-- so the row's old versions are pruned from its page as it goes: the table stays a page or two whatever
-- the traffic. By autovacuum's defaults it was due all the same, every time: more dead rows than 50 at
-- any moment, and a count of changes since its last ANALYZE that grows with every request. On PGlite the
-- upkeep (lib/db/pglite-maintenance.ts, which reads these parameters as autovacuum does) so vacuumed or
-- analyzed it every ten seconds under API traffic, each pass holding the only connection for 4-36 ms.
-- Its statistics steer no plan (the count goes by its unique key; the sweep of old windows reads the
-- whole table), so ANALYZE is left to the first time only; VACUUM waits for 10,000 dead rows, which
-- sweeps of many keys' old windows can leave.
ALTER TABLE "rate_limit_window" SET (autovacuum_vacuum_threshold = 10000, autovacuum_analyze_threshold = 2147483647);
