// Organization branding (issue 19 item 6): the accent's text colour, the logo's type sniffing, the
// settings' validation, and the branded email.
import { describe, expect, it } from "vitest";
import { brandingInput, contrast, sniffLogo, textOn } from "@/lib/orgs/branding";
import { signingRequestEmail } from "@/lib/mail/templates";

describe("accent colour", () => {
  it("puts the text colour with more contrast on it, readable (at least 4.5:1)", () => {
    expect(textOn("#ffff00")).toBe("#000000");
    expect(textOn("#1a237e")).toBe("#ffffff");
    for (const accent of ["#000000", "#ffffff", "#777777", "#3457d5", "#e11d48", "#22c55e", "#f59e0b", "#0ea5e9"])
      expect(contrast(accent, textOn(accent)), accent).toBeGreaterThanOrEqual(4.5);
  });

  it("accepts #rrggbb or blank (Quire's), nothing else", () => {
    expect(brandingInput.parse({ accent: "#1A7F5A", senderName: "  Acme  ", emailFooter: "" })).toEqual({
      accent: "#1a7f5a",
      senderName: "Acme",
      emailFooter: null,
    });
    expect(brandingInput.parse({ accent: "", senderName: "", emailFooter: "" }).accent).toBeNull();
    for (const accent of ["red", "#fff", "#12345g", "#1234567", "url(x)", "#123456;color:red"])
      expect(brandingInput.safeParse({ accent, senderName: "", emailFooter: "" }).success, accent).toBe(false);
    expect(brandingInput.safeParse({ accent: "", senderName: "x".repeat(101), emailFooter: "" }).success).toBe(false);
    expect(brandingInput.safeParse({ accent: "", senderName: "", emailFooter: "x".repeat(501) }).success).toBe(false);
  });
});

describe("logo type", () => {
  it("is PNG or JPEG by the bytes; SVG, GIF and text are refused whatever their name", () => {
    expect(sniffLogo(Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"))).toBe("image/png");
    expect(sniffLogo(Buffer.from("ffd8ffe000104a464946", "hex"))).toBe("image/jpeg");
    expect(sniffLogo(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toBeNull();
    expect(sniffLogo(Buffer.from("GIF89a......"))).toBeNull();
    expect(sniffLogo(Buffer.alloc(0))).toBeNull();
  });
});

describe("branded email", () => {
  it("shows the logo, the display name, the footer and the accent, escaped", () => {
    const mail = signingRequestEmail({
      recipientName: "Jo",
      documentName: "Lease",
      signUrl: "https://q.test/sign/t",
      brand: {
        name: "Acme <Homes>",
        footer: "Acme Homes Ltd\nRegistered in Nowhere",
        accent: "#ffff00",
        accentText: "#000000",
        logoUrl: "https://q.test/api/branding/logo/abc",
      },
    });
    expect(mail.html).toContain('<img src="https://q.test/api/branding/logo/abc" alt="Acme &lt;Homes&gt;"');
    expect(mail.html).toContain("Sent by Acme &lt;Homes&gt; on behalf of the document&#39;s sender.<br>Acme Homes Ltd<br>Registered in Nowhere");
    expect(mail.html).toContain("background:#ffff00");
    expect(mail.html).toContain("color:#000000");
    expect(mail.text).toContain("-- Sent by Acme <Homes> on behalf of the document's sender.\nAcme Homes Ltd");
    const plain = signingRequestEmail({ recipientName: "Jo", documentName: "Lease", signUrl: "https://q.test/sign/t" });
    expect(plain.html).toContain("background:#3457d5");
    expect(plain.html).not.toContain("<img");
  });
});
