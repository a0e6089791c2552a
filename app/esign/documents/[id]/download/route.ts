import { documentPdf } from "@/lib/esign/documents";
import { documentDownloadLink } from "@/lib/esign/file-links";
import { signingOperations } from "@/lib/esign/operations";
import { esignDeps } from "@/lib/esign/service";
import { prefersJsonReply } from "@/lib/http/accept";
import { apiRoute, dataResponse } from "@/lib/http/api-route";
import { attachment, contentDisposition } from "@/lib/http/download";

// The signed PDF once completed, else the current PDF; as JSON, a keyless link to it that expires in minutes
// (what the hosted service's SDKs ask for: they send Content-Type: application/json on the GET).
export const GET = apiRoute(signingOperations.downloadSigningDocument, async ({ req, principal, params }) => {
  const deps = await esignDeps();
  if (prefersJsonReply(req)) {
    const link = await documentDownloadLink(deps, principal.orgId, params.id, contentDisposition);
    return dataResponse({ downloadUrl: link.url, fileName: link.fileName, expiresAt: link.expiresAt });
  }
  const file = await documentPdf(deps, principal.orgId, params.id);
  return attachment(file.data, "application/pdf", file.fileName);
});
