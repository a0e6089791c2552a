import { WRITERS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { deliverableFile } from "@/lib/deliverables/deliverables";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { attachment } from "@/lib/http/download";
import { fileStorage } from "@/lib/storage";

export const GET = dashboardRoute<{ id: string }>({ roles: WRITERS, feature: "hasFileDownload" }, async ({ ctx, params }) => {
  const file = await deliverableFile(await db(), fileStorage(), ctx.org.id, params.id, "source");
  return attachment(file.data, file.contentType, file.fileName);
});
