// Who a document's emails go to besides its signers (its sender and cc addresses), and each address
// once: the completion and decline emails build their lists from these.

export interface MailParty {
  name: string;
  email: string;
}

/** The sender, when the document names one. */
export function senderParty(doc: { senderEmail: string | null; senderName: string | null }): MailParty[] {
  return doc.senderEmail ? [{ name: doc.senderName ?? doc.senderEmail, email: doc.senderEmail }] : [];
}

/** The cc addresses (stored as a JSON array), named by their address. */
export function ccParties(doc: { ccEmails: unknown }): MailParty[] {
  return ((doc.ccEmails as string[] | null) ?? []).map((email) => ({ name: email, email }));
}

/** Each address once, case-insensitively, in the order given; `skip` addresses not at all. */
export function onePerAddress(parties: MailParty[], skip: string[] = []): MailParty[] {
  const seen = new Set(skip.map((e) => e.toLowerCase()));
  return parties.filter((p) => {
    const key = p.email.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
