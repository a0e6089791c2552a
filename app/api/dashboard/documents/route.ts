import { SENDERS } from "@/lib/auth/roles";
import { prepareDocument } from "@/lib/esign/documents";
import { withPrepareRequest } from "@/lib/esign/http";
import { esignDeps } from "@/lib/esign/service";
import { dataResponse } from "@/lib/http/api-route";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { requestMeta } from "@/lib/http/request-meta";

// "Send for signing", step one: the document and its signers become a draft; fields are placed
// on it next (/documents/{id}/prepare) and it is sent from there. The signed-in user is the sender.
export const POST = dashboardRoute({ roles: SENDERS }, async ({ req, ctx }) => {
  return withPrepareRequest(req, async (input, file) => {
    const reply = await prepareDocument(
      await esignDeps(),
      { orgId: ctx.org.id, userId: ctx.user.id },
      { ...input, senderName: input.senderName ?? ctx.user.name, senderEmail: input.senderEmail ?? ctx.user.email },
      file,
      "review",
      requestMeta(req),
    );
    return dataResponse(reply, { status: 201 });
  });
});
