import { ANY_ROLE } from "@/lib/auth/roles";
import { db } from "@/lib/db/client";
import { dashboardRoute } from "@/lib/http/dashboard-route";
import { requireUuid } from "@/lib/http/validation";
import { pdfConverter } from "@/lib/pdf/converter";
import { fileStorage } from "@/lib/storage";
import { checkStoredTemplate } from "@/lib/templates/templates";
import { jsonReply } from "@/lib/http/json-reply";

// The template page's "Check template" panel: the same findings as POST /template/{id}/check.
export const POST = dashboardRoute<{ id: string }>({ roles: ANY_ROLE }, async ({ ctx, params }) =>
  jsonReply({
    data: await checkStoredTemplate(await db(), fileStorage(), ctx.org.id, requireUuid(params.id, "Template not found", "TemplateNotFound"), () =>
      pdfConverter().fonts(),
    ),
  }),
);
