// The parties a document's completion and decline emails go to: sender and cc, each address once.
import { describe, expect, it } from "vitest";
import { ccParties, onePerAddress, senderParty } from "@/lib/esign/mail-parties";

describe("mail parties", () => {
  it("names the sender by name, else by address, and nobody when there is none", () => {
    expect(senderParty({ senderEmail: "s@example.com", senderName: "Sam" })).toEqual([{ name: "Sam", email: "s@example.com" }]);
    expect(senderParty({ senderEmail: "s@example.com", senderName: null })).toEqual([{ name: "s@example.com", email: "s@example.com" }]);
    expect(senderParty({ senderEmail: null, senderName: "Sam" })).toEqual([]);
  });

  it("reads cc from its JSON array, and nothing from null", () => {
    expect(ccParties({ ccEmails: ["a@example.com"] })).toEqual([{ name: "a@example.com", email: "a@example.com" }]);
    expect(ccParties({ ccEmails: null })).toEqual([]);
  });

  it("keeps each address once, case-insensitively, first one wins, skipping the given ones", () => {
    const parties = [
      { name: "Ada", email: "Ada@Example.com" },
      { name: "ada again", email: "ada@example.com" },
      { name: "Bo", email: "bo@example.com" },
      { name: "Cy", email: "cy@example.com" },
    ];
    expect(onePerAddress(parties, ["BO@example.com"])).toEqual([
      { name: "Ada", email: "Ada@Example.com" },
      { name: "Cy", email: "cy@example.com" },
    ]);
  });
});
