import { WRITERS } from "@/lib/auth/roles";
import { documentPdf } from "@/lib/esign/documents";
import { esignDeps } from "@/lib/esign/service";
import { apiRoute } from "@/lib/http/api-route";
import { attachment } from "@/lib/http/download";

// The signed PDF once completed, else the current PDF.
export const GET = apiRoute<{ id: string }>({ family: "signing", roles: WRITERS }, async ({ principal, params }) => {
  const file = await documentPdf(await esignDeps(), principal.orgId, params.id);
  return attachment(file.data, "application/pdf", file.fileName);
});
