// Tests move the service clock to cross passcode rate-limit windows without waiting. Exists only
// with QUIRE_TEST_CLOCK=1 and, like the seed route, needs the local secret from DATA_DIR.
import { z } from "zod";
import { setClockOffset } from "@/lib/clock";
import { requireLocalSecret } from "@/lib/auth/local-secret";
import { getConfig } from "@/lib/config";
import { NotFoundError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/errors";
import { parseJsonBody } from "@/lib/http/validation";
import { observed } from "@/lib/http/observe";
import { kickAllPollers } from "@/lib/server/poller";
import { jsonReply } from "@/lib/http/json-reply";

const body = z.object({ offsetMs: z.number().int() });

export const POST = observed(async function POST(req: Request): Promise<Response> {
  try {
    const config = getConfig();
    if (!config.testClock) throw new NotFoundError("Not found", "NotFound");
    requireLocalSecret(req);
    const { offsetMs } = await parseJsonBody(body, req);
    setClockOffset(offsetMs);
    // Timed work (reminders) may be due at the new time: look now rather than at the next idle poll.
    kickAllPollers();
    return jsonReply({ data: { offsetMs } });
  } catch (err) {
    return errorResponse(err, "deliverable");
  }
});
