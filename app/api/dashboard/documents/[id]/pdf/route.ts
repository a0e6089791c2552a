import { WRITERS } from "@/lib/auth/roles";
import { documentPdf } from "@/lib/esign/documents";
import { esignDeps } from "@/lib/esign/service";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { attachment } from "@/lib/http/download";

export const GET = dashboardRoute<{ id: string }>({ roles: WRITERS }, async ({ ctx, params }) => {
  const file = await documentPdf(await esignDeps(), ctx.org.id, params.id);
  return attachment(file.data, "application/pdf", file.fileName);
});
