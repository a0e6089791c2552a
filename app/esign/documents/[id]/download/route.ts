import { documentPdf } from "@/lib/esign/documents";
import { esignDeps } from "@/lib/esign/service";
import { signingOperations } from "@/lib/esign/operations";
import { apiRoute } from "@/lib/http/api-route";
import { attachment } from "@/lib/http/download";

// The signed PDF once completed, else the current PDF.
export const GET = apiRoute(signingOperations.downloadSigningDocument, async ({ principal, params }) => {
  const file = await documentPdf(await esignDeps(), principal.orgId, params.id);
  return attachment(file.data, "application/pdf", file.fileName);
});
