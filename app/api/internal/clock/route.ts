// Tests move the service clock to cross passcode rate-limit windows without waiting. Exists only
// with QUIRE_TEST_CLOCK=1 and, like the seed route, needs the local secret from DATA_DIR.
import crypto from "node:crypto";
import { z } from "zod";
import { setClockOffset } from "@/lib/clock";
import { getConfig, persistedSecret } from "@/lib/config";
import { NotFoundError, UnauthenticatedError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/errors";
import { parseJsonBody } from "@/lib/http/validation";

const body = z.object({ offsetMs: z.number().int() });

export async function POST(req: Request): Promise<Response> {
  try {
    const config = getConfig();
    if (!config.testClock) throw new NotFoundError("Not found", "NotFound");
    const presented = crypto.createHash("sha256").update(req.headers.get("x-quire-local-secret") ?? "").digest();
    const expected = crypto.createHash("sha256").update(persistedSecret(config.dataDir, "localAdminSecret")).digest();
    if (!crypto.timingSafeEqual(presented, expected)) throw new UnauthenticatedError();
    const { offsetMs } = await parseJsonBody(body, req);
    setClockOffset(offsetMs);
    return Response.json({ data: { offsetMs } });
  } catch (err) {
    return errorResponse(err, "deliverable");
  }
}
