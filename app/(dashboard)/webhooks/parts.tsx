import { RoleRefusal } from "@/components/ui";

// Webhook secrets sign what Quire sends; webhook endpoints are administrator-only in the API as well.
export function AdminOnly() {
  return (
    <RoleRefusal title="Webhooks">
      Only administrators can manage webhooks. A webhook’s secret lets a receiver trust events from Quire, and its delivery log holds document details, so both
      stay with administrators.
    </RoleRefusal>
  );
}
