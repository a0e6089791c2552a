import { RoleRefusal } from "@/components/ui";
import { getConfig } from "@/lib/config";

// The outbox holds signing links, which work like passwords: administrators only.
export function AdminOnly() {
  return (
    <RoleRefusal title="Outbox">Only administrators can view the outbox. Its emails contain signing links, which let anyone who has them sign.</RoleRefusal>
  );
}

/** Whether emails leave the machine: only with SMTP_URL set; otherwise the outbox is all there is. */
export function TransportBanner() {
  const smtp = Boolean(getConfig().mail.smtpUrl);
  return smtp ? (
    <p className="mb-4 rounded-md border border-brand-100 bg-brand-50 p-3 text-sm text-brand-900">
      SMTP is configured (<code>SMTP_URL</code>): emails are delivered to their recipients and also recorded here.
    </p>
  ) : (
    <p className="mb-4 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
      <code>SMTP_URL</code> is not set, so emails are <strong>not delivered</strong>: they are only recorded here. Open a message to follow its links. Set{" "}
      <code>SMTP_URL</code> to deliver them as well.
    </p>
  );
}
