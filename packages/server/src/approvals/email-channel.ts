/**
 * The email channel: one message per approver who may still decide, through SMTP
 * (`BROKER_SMTP_URL`). A request or a reminder carries the recipient's own signed Approve and Deny
 * links (one-time, short-lived, opening a confirmation page); an outcome says what was decided.
 * Progress is the members already emailed, so a retry after a failure mails only the rest.
 */
import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import { isLoopbackHostname } from "../shared/loopback.js";
import { ChannelFailure, type ApprovalChannel, type ApprovalNotice } from "./approval-channel.js";
import { approvalEmail } from "./approval-email.js";
import type { ApprovalLinks } from "./approval-links.js";

type Progress = { emailed: string[] };
/** What the channel needs of a mail transport (nodemailer's, or a test's). */
export type MailTransport = { sendMail(message: { from: string; to: string; subject: string; text: string; html: string }): Promise<unknown> };

type EmailChannelDeps = {
  transport: MailTransport;
  from: string;
  links: Pick<ApprovalLinks, "memberUrls">;
  publicUrl: string;
};

/**
 * nodemailer's SMTP transport for `BROKER_SMTP_URL`: smtps:// is TLS from the start; smtp:// to
 * another machine must upgrade with STARTTLS or not send (the messages carry approve links); only a
 * relay on this machine's loopback may take them in plain text.
 */
export function smtpTransport(url: string): MailTransport {
  const { protocol, hostname } = new URL(url);
  return nodemailer.createTransport({ url, requireTLS: protocol === "smtp:" && !isLoopbackHostname(hostname) });
}

const progressOf = (progress: unknown): Progress =>
  typeof progress === "object" && progress !== null && Array.isArray((progress as Progress).emailed) ? { emailed: [...(progress as Progress).emailed] } : { emailed: [] };

/**
 * Why a send failed, in words fit for `last_error`: the SMTP code and reply code only. The error's
 * own message may quote the server's reply or the connection's details; neither is kept.
 */
function failureOf(error: unknown): string {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const parts = [typeof code === "string" && /^[A-Z_]{1,40}$/.test(code) ? code : undefined, typeof responseCode === "number" ? `reply ${responseCode}` : undefined];
  return `the SMTP server did not take the message (${parts.filter(Boolean).join(", ") || "no reply"})`;
}

export function createEmailChannel({ transport, from, links, publicUrl }: EmailChannelDeps): ApprovalChannel {
  return {
    kind: "email",
    async send(notice: ApprovalNotice): Promise<Progress> {
      const progress = progressOf(notice.progress);
      const withEmail = notice.approvers.filter((member) => member.email);
      if (withEmail.length === 0) throw new ChannelFailure("no approver of this approval has an email address (PATCH /v1/members/{id})", progress);
      const { approval } = notice;
      const consoleUrl = `${publicUrl}/console/approvals/${approval.id}?tenant=${approval.tenantId}`;
      for (const member of withEmail) {
        if (progress.emailed.includes(member.id)) continue;
        const memberLinks = notice.purpose === "outcome" ? null : links.memberUrls(approval, member.id, randomUUID());
        const message = approvalEmail(notice, memberLinks, consoleUrl);
        try {
          await transport.sendMail({ from, to: member.email!, ...message });
        } catch (error) {
          throw new ChannelFailure(failureOf(error), progress);
        }
        progress.emailed.push(member.id);
      }
      return progress;
    },
  };
}
