// Internal routes (seed, test clock) answer only a process that can read DATA_DIR/secrets.json.
import { getConfig, persistedSecret } from "@/lib/config";
import { sameSecret } from "@/lib/crypto/same-secret";
import { UnauthenticatedError } from "@/lib/errors";

export function requireLocalSecret(req: Request): void {
  const presented = req.headers.get("x-quire-local-secret") ?? "";
  if (!sameSecret(presented, persistedSecret(getConfig().dataDir, "localAdminSecret"))) throw new UnauthenticatedError();
}
