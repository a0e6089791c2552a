import { loadByToken } from "@/lib/esign/signer-access";
import { signerCopy } from "@/lib/esign/signer-copies";
import { esignDeps } from "@/lib/esign/service";
import { attachment } from "@/lib/http/download";
import { errorResponse } from "@/lib/http/errors";
import { observed } from "@/lib/http/observe";
import { signerSessionOf } from "@/lib/http/signer-session";

// The completed, sealed copy: only once every signer has signed (409 document_not_completed before).
export const GET = observed(async function GET(req: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  try {
    const deps = await esignDeps();
    const copy = await signerCopy(deps, await loadByToken(deps.db, (await params).token), "completed", signerSessionOf(req));
    return attachment(copy.data, "application/pdf", copy.fileName);
  } catch (err) {
    return errorResponse(err, "signer");
  }
});
