-- What an API request's admission depends on: the key (revoked, deleted, its role or organization)
-- and its organization's plan. Any statement that may change one of them notifies the channel
-- quire_admission when it commits. The embedded database's only process (PGlite) listens and admits
-- keys from memory until told (lib/auth/process-admission.ts, ADR 0021); on PostgreSQL nobody listens
-- and every request reads the key in its own admission statement. Per statement, not per row: a
-- rotation or cascade of many keys is one notification; lastUsedAt and the usage columns do not fire it.
CREATE FUNCTION quire_admission_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('quire_admission', TG_TABLE_NAME);
  RETURN NULL;
END
$$;

CREATE TRIGGER api_key_admission_changed
  AFTER UPDATE OF "revokedAt", "role", "orgId", "userId", "hash" OR DELETE OR TRUNCATE ON "api_key"
  FOR EACH STATEMENT EXECUTE FUNCTION quire_admission_changed();

CREATE TRIGGER organization_admission_changed
  AFTER UPDATE OF "hasFileDownload", "emailOtp", "smsOtp", "maxDeliverables", "maxStorageBytes", "smsAllowance", "rateLimitPerMinute" OR DELETE OR TRUNCATE ON "organization"
  FOR EACH STATEMENT EXECUTE FUNCTION quire_admission_changed();
