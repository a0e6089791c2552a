import type { Metadata } from "next";
import { headers } from "next/headers";
import { CompletionNotifier, DeclinedNotice, SignedNotice } from "@/components/signing/completion";
import { copyLinks } from "@/components/signing/copy-links";
import { GatedSigning } from "@/components/signing/gated-signing";
import { SigningClient } from "@/components/signing/signing-client";
import { getConfig } from "@/lib/config";
import { db } from "@/lib/db/client";
import { embeddingOrigin, frameAncestorsForToken } from "@/lib/esign/framing";
import { openSigningSession, SignerError } from "@/lib/esign/signing";
import { esignDeps } from "@/lib/esign/service";
import { requestMetaOf } from "@/lib/http/request-meta";

export const metadata: Metadata = { title: "Sign a document", robots: { index: false } };
export const dynamic = "force-dynamic";

function Notice({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <div role="status" className="w-full max-w-md rounded-lg border border-slate-200 bg-white p-6 text-center shadow-sm">
        <h1 className="mb-2 text-xl font-semibold">{title}</h1>
        <div className="text-sm text-slate-600">{children}</div>
      </div>
    </main>
  );
}

export default async function SignPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const h = await headers();
  const meta = requestMetaOf(h);
  let session: Awaited<ReturnType<typeof openSigningSession>>;
  try {
    session = await openSigningSession(await esignDeps(), token, meta);
  } catch (err) {
    if (err instanceof SignerError) return <Notice title="This link does not work">{err.message}. Ask the sender for a new link.</Notice>;
    throw err;
  }
  const { state, document } = session;
  // The framing page, if the browser named it and the organization allows it (docs/contract.md "Embedded signing").
  const embedOrigin = embeddingOrigin(h.get("referer"), await frameAncestorsForToken(await db(), token), new URL(getConfig().baseUrl).origin);
  if (state === "voided")
    return (
      <Notice title="This document was voided">
        The sender cancelled it{document.voidReason ? `: “${document.voidReason}”` : ""}. Nothing is left to sign.
      </Notice>
    );
  if (state === "declined")
    return (
      <main>
        <DeclinedNotice documentName={document.name} reason={document.declineReason} />
      </main>
    );
  if (state === "already_signed" || state === "completed")
    return (
      <main>
        <CompletionNotifier origin={embedOrigin} documentId={document.id} />
        <SignedNotice
          documentName={document.name}
          everyone={document.status === "completed"}
          links={session.access.verified ? copyLinks(token, null, document.status === "completed") : null}
        />
      </main>
    );
  if (state === "expired") return <Notice title="This signing request has expired">Ask the sender to send it again.</Notice>;
  if (state === "draft") return <Notice title="Not sent yet">The sender has not sent this document for signing yet.</Notice>;
  if (state === "not_your_turn")
    return <Notice title="Not your turn yet">An earlier signer has not signed “{document.name}” yet. We will email you when it is your turn.</Notice>;

  const header = (
    <header className="mb-4">
      <p className="text-xs uppercase tracking-wide text-slate-500">Quire · secure signing</p>
      <h1 className="break-words text-xl font-semibold">{document.name}</h1>
      <p className="text-sm text-slate-600">
        {document.senderName
          ? `${document.senderName} asks you, ${session.recipient.name}, to sign.`
          : `Signing as ${session.recipient.name} (${session.recipient.email}).`}
      </p>
    </header>
  );
  return (
    <main className="mx-auto max-w-4xl px-4 py-4">
      {session.verification ? (
        <GatedSigning
          token={token}
          header={header}
          verification={session.verification}
          document={{ id: document.id, name: document.name }}
          signer={{ name: session.recipient.name, email: session.recipient.email }}
          embedOrigin={embedOrigin}
        />
      ) : (
        <SigningClient
          token={token}
          header={header}
          pages={session.pages}
          fields={session.fields}
          filled={session.filled}
          signer={{ name: session.recipient.name, email: session.recipient.email }}
          document={{ id: document.id, name: document.name }}
          embedOrigin={embedOrigin}
        />
      )}
    </main>
  );
}
