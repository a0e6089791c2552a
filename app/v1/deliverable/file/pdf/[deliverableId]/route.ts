import { db } from "@/lib/db/client";
import { deliverableFile } from "@/lib/deliverables/deliverables";
import { deliverableOperations } from "@/lib/deliverables/operations";
import { apiRoute } from "@/lib/http/api-route";
import { attachment } from "@/lib/http/download";
import { fileStorage } from "@/lib/storage";

export const GET = apiRoute(deliverableOperations.downloadDeliverablePdf, async ({ principal, params }) => {
  const file = await deliverableFile(await db(), fileStorage(), principal.orgId, params.deliverableId, "pdf");
  return attachment(file.data, file.contentType, file.fileName);
});
