// Serverless deployments have no long-lived worker: a scheduler (Vercel Cron, see vercel.json) calls
// this every minute to finish signed documents whose completion is due (a retry after a failure)
// and to fan out new events and send due webhook deliveries, reminders, expiry warnings and bulk send rows.
import { getConfig } from "@/lib/config";
import { sameSecret } from "@/lib/crypto/same-secret";
import { NotFoundError, UnauthenticatedError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/errors";
import { runCompletionPass } from "@/lib/esign/completion";
import { runReminderPass } from "@/lib/esign/reminders";
import { runBulkSendPass } from "@/lib/esign/bulk-send-worker";
import { esignDeps, signingDeps } from "@/lib/esign/service";
import { drainDeliveries } from "@/lib/webhooks/delivery";
import { webhookDeps } from "@/lib/webhooks/service";
import { observed } from "@/lib/http/observe";
import { jsonReply } from "@/lib/http/json-reply";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

export const GET = observed(async function GET(req: Request): Promise<Response> {
  try {
    const { cronSecret } = getConfig();
    if (!cronSecret) throw new NotFoundError("Not found", "NotFound");
    const presented = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
    if (!sameSecret(presented, cronSecret)) throw new UnauthenticatedError();
    const completed = await runCompletionPass(await signingDeps());
    const reminded = await runReminderPass(await signingDeps(), 100);
    const bulkRows = await runBulkSendPass(await esignDeps(), { budgetMs: 15_000 });
    const attempted = await drainDeliveries(await webhookDeps(), { budgetMs: 30_000 });
    return jsonReply({ data: { attempted, completed, reminded, bulkRows } });
  } catch (err) {
    return errorResponse(err, "deliverable");
  }
});
