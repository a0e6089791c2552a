import { WRITERS } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { deliverableFile } from "@/lib/deliverables/deliverables";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { attachment, inline } from "@/lib/http/download";
import { fileStorage } from "@/lib/storage";

// ?download=1 saves the file; otherwise it is shown inline (the detail page's preview).
export const GET = dashboardRoute<{ id: string }>({ roles: WRITERS }, async ({ req, ctx, params }) => {
  const file = await deliverableFile(await db(), fileStorage(), ctx.org.id, params.id, "pdf");
  const download = new URL(req.url).searchParams.get("download") === "1";
  return (download ? attachment : inline)(file.data, file.contentType, file.fileName);
});
