import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, RateLimitedError, UnauthenticatedError, ValidationError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/errors";

async function reply(err: unknown, family: Parameters<typeof errorResponse>[1]) {
  const res = errorResponse(err, family);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

const invalid = new ValidationError("Invalid query parameters", [
  { field: "limit", message: "must be a number" },
  { field: "order0", message: "must be asc or desc" },
]);

describe("deliverable family: { error, message }", () => {
  it("maps kinds to statuses", async () => {
    expect(await reply(invalid, "deliverable")).toMatchObject({ status: 400, body: { error: "ValidationError", message: "Invalid query parameters" } });
    expect(await reply(new UnauthenticatedError(), "deliverable")).toMatchObject({ status: 401, body: { error: "Unauthorized" } });
    expect(await reply(new ForbiddenError(), "deliverable")).toMatchObject({ status: 403 });
    expect(await reply(new NotFoundError("Deliverable not found"), "deliverable")).toMatchObject({
      status: 404,
      body: { error: "NotFound", message: "Deliverable not found" },
    });
  });

  it("sets Retry-After on 429", async () => {
    const r = await reply(new RateLimitedError(17), "deliverable");
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBe("17");
  });

  it("hides unexpected errors behind a 500 without details", async () => {
    const r = await reply(new Error("password=hunter2 at db"), "deliverable");
    expect(r.status).toBe(500);
    expect(JSON.stringify(r.body)).not.toContain("hunter2");
  });
});

describe("listing family (template listing, webhooks)", () => {
  it("answers 401 and 403 with an empty body", async () => {
    expect(await reply(new UnauthenticatedError(), "listing")).toMatchObject({ status: 401, body: null });
    expect(await reply(new ForbiddenError(), "listing")).toMatchObject({ status: 403, body: null });
  });

  it("lists every validation error", async () => {
    expect((await reply(invalid, "listing")).body).toEqual({
      message: "Invalid query parameters",
      type: "ValidationError",
      data: { errors: invalid.issues },
    });
  });

  it("turns zod errors into the same shape", async () => {
    const parsed = z.object({ limit: z.number() }).safeParse({ limit: "x" });
    const r = await reply(parsed.error, "listing");
    expect(r.status).toBe(400);
    expect(r.body.data.errors[0].field).toBe("limit");
  });

  it("uses the webhook shapes for 404, 400 state errors and 409", async () => {
    expect((await reply(new NotFoundError("Webhook not found"), "listing")).body).toEqual({ error: "Webhook not found" });
    expect((await reply(new BadRequestError("Cannot test inactive webhook", "WebhookInactive"), "listing")).body).toEqual({
      error: "Cannot test inactive webhook",
    });
    const conflict = new ConflictError("Name taken", "WebhookNameTaken", { constraint: "name", orgId: "o", name: "signature" });
    expect(await reply(conflict, "listing")).toMatchObject({
      status: 409,
      body: { message: "Name taken", error: "WebhookNameTaken", data: { constraint: "name", orgId: "o", name: "signature" } },
    });
  });
});

describe("signing family: { message, type, error, code }", () => {
  it("repeats message as error and code as type", async () => {
    const r = await reply(new ConflictError("Not this signer's turn", "RecipientNotInTurn"), "signing");
    expect(r).toMatchObject({
      status: 409,
      body: { message: "Not this signer's turn", type: "RecipientNotInTurn", error: "Not this signer's turn", code: "RecipientNotInTurn" },
    });
  });

  it("answers a plain 403 to a User key and { message, type } for DocumentNotFound", async () => {
    expect((await reply(new ForbiddenError(), "signing")).body).toEqual({ message: "Forbidden" });
    expect((await reply(new NotFoundError("Document not found", "DocumentNotFound"), "signing")).body).toEqual({
      message: "Document not found",
      type: "DocumentNotFound",
    });
  });

  it("uses lowercase codes on signer-facing endpoints", async () => {
    expect((await reply(new ConflictError("Too many wrong codes", "Locked"), "signer")).body).toEqual({ error: "Too many wrong codes", code: "locked" });
  });
});
