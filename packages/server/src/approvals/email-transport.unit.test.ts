import { describe, expect, it } from "vitest";
import { smtpTransport } from "./email-channel.js";

/** nodemailer keeps what it was given; nothing here connects. */
const optionsOf = (url: string) => (smtpTransport(url) as unknown as { transporter: { options: { requireTLS?: boolean; secure?: boolean } } }).transporter.options;

describe("smtpTransport", () => {
  it("requires STARTTLS for a plain smtp:// server on another machine", () => {
    expect(optionsOf("smtp://user:pw@192.0.2.10:587").requireTLS).toBe(true);
  });

  it("lets a loopback relay take mail in plain text, and smtps:// is TLS from the start", () => {
    expect(optionsOf("smtp://127.0.0.1:2525").requireTLS).toBe(false);
    expect(optionsOf("smtp://[::1]:25").requireTLS).toBe(false);
    expect(optionsOf("smtps://user:pw@192.0.2.10:465")).toMatchObject({ secure: true, requireTLS: false });
  });
});
