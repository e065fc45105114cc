/** A real SMTP server on loopback (the `smtp-server` package) that keeps what it receives, for the email channel's tests. */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { to: string[]; raw: string; subject: string; text: string };

/** Decodes a quoted-printable body (soft line breaks, `=XX` bytes) as UTF-8. */
function decodeQuotedPrintable(body: string): string {
  const bytes = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** The text/plain part of a message as nodemailer writes it (quoted-printable or base64). */
function textOf(raw: string): string {
  const part = /Content-Type: text\/plain[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*?Content-Transfer-Encoding: ([\w-]+)\r?\n\r?\n([\s\S]*?)\r?\n(?:--|$)/i.exec(raw);
  if (!part) return "";
  return part[1]!.toLowerCase() === "base64" ? Buffer.from(part[2]!.replace(/\s/g, ""), "base64").toString("utf8") : decodeQuotedPrintable(part[2]!);
}

export type SmtpInbox = {
  url: (credentials?: string) => string;
  mails: ReceivedMail[];
  /** Recipients the server refuses (550) until removed. */
  refused: Set<string>;
  logins: string[];
  close(): Promise<void>;
};

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  const refused = new Set<string>();
  const logins: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, done) {
      logins.push(auth.username ?? "");
      done(null, { user: auth.username });
    },
    onRcptTo(address, _session, done) {
      if (refused.has(address.address)) return done(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }));
      done();
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const subject = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1]?.replace(/\r?\n[ \t]/g, " ") ?? "";
        mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw, subject, text: textOf(raw) });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: (credentials) => `smtp://${credentials ? `${credentials}@` : ""}127.0.0.1:${port}`,
    mails,
    refused,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The Approve and Deny links of an approval email. */
export function linksIn(mail: ReceivedMail): { approve: string; deny: string } {
  const approve = /^Approve: (\S+)$/m.exec(mail.text)?.[1];
  const deny = /^Deny: (\S+)$/m.exec(mail.text)?.[1];
  if (!approve || !deny) throw new Error(`no links in the email:\n${mail.text}`);
  return { approve, deny };
}
