/**
 * What a signed approval link opens and decides: the end user's hosted page, or an approver's
 * email confirmation. Opening a link (GET) reads only; a decision is a form post, and spends the
 * link in the decision's own transaction, so a link decides once and a refused decision leaves it
 * unspent.
 */
import type { Clock } from "../clock.js";
import { BrokerError } from "../errors.js";
import type { Approval, Decider } from "./approval.js";
import type { ApprovalBinding, ApprovalBindings } from "./approval-binding.js";
import type { ApprovalLinks, LinkClaims } from "./approval-links.js";
import type { ApprovalLinkUseQueries } from "./approval-link-use-queries.js";
import type { ApprovalService } from "./approval-service.js";

export type LinkView = { claims: LinkClaims; approval: Approval; binding: ApprovalBinding; used: boolean };

type PageDeps = {
  links: Pick<ApprovalLinks, "read">;
  approvals: Pick<ApprovalService, "get" | "decide">;
  bindings: Pick<ApprovalBindings, "describe">;
  linkUses: ApprovalLinkUseQueries;
  /** The member an email link speaks for, as the audit log names operators (passed in: approvals read no tenants). */
  findMember: (tenantId: string, memberId: string) => Promise<{ issuer: string; subject: string } | undefined>;
  clock: Clock;
};

const MEMBER = "member:";
const END_USER = "end_user:";

/** A link is for its subject only: an end user's link names the end user the approval is routed to. */
function assertSubjectMayOpen(claims: LinkClaims, approval: Approval) {
  const endUserLink = claims.kind === "end_user";
  const routedToEndUser = approval.requirement.approvers === "end_user";
  const matches = endUserLink
    ? routedToEndUser && approval.endUserId !== null && claims.subject === `${END_USER}${approval.endUserId}`
    : !routedToEndUser && claims.subject.startsWith(MEMBER);
  if (!matches) throw new BrokerError("forbidden", "this approval link is not for the person this approval waits for", { reason: "not_your_approval" });
}

export function createApprovalPageService({ links, approvals, bindings, linkUses, findMember, clock }: PageDeps) {
  async function open(token: string): Promise<LinkView> {
    const claims = links.read(token);
    const approval = await approvals.get(claims.tenantId, claims.approvalId);
    assertSubjectMayOpen(claims, approval);
    return { claims, approval, binding: await bindings.describe(approval), used: await linkUses.isUsed(claims.linkId) };
  }

  async function deciderOf(claims: LinkClaims): Promise<Decider> {
    if (claims.kind === "end_user") return { kind: "end_user", endUserId: claims.subject.slice(END_USER.length), via: "end_user_page" };
    const memberId = claims.subject.slice(MEMBER.length);
    const member = await findMember(claims.tenantId, memberId);
    if (!member) throw new BrokerError("forbidden", "the member this link was sent to is no longer a member of the tenant", { reason: "not_a_member" });
    return { kind: "member", memberId, via: "email", actor: { type: "operator", id: `${member.issuer}|${member.subject}` } };
  }

  return {
    /** What the page shows; decides nothing. */
    open,

    /**
     * Decides through a link opened with `open`: the end user's page chooses; an email's link is its own choice (a
     * form saying otherwise is refused). 410 approval_link_used for a link that already decided. `digest` is the version
     * of the call the page showed (its form's hidden field): an approve of a call edited since is refused, the link unspent.
     */
    async decide({ claims }: LinkView, choice: "approve" | "deny" | undefined, digest?: string): Promise<LinkView> {
      const decision = claims.kind === "end_user" ? choice : claims.kind;
      if (decision === undefined || (choice !== undefined && choice !== decision)) {
        throw new BrokerError("invalid_request", claims.kind === "end_user" ? "choose approve or deny" : `this link can only ${claims.kind}`, { fields: ["decision"] });
      }
      const spend = async (trx: Parameters<typeof linkUses.spend>[1]) => {
        if (!(await linkUses.spend({ linkId: claims.linkId, approvalId: claims.approvalId, at: clock.now().toISOString() }, trx))) throw linkUsed();
      };
      if (await linkUses.isUsed(claims.linkId)) throw linkUsed();
      const approval = await approvals.decide(claims.tenantId, claims.approvalId, { decision, digest }, await deciderOf(claims), { alsoIn: spend });
      return { claims, approval, binding: await bindings.describe(approval), used: true };
    },
  };
}

const linkUsed = () => new BrokerError("approval_link_used", "this approval link was already used");

export type ApprovalPageService = ReturnType<typeof createApprovalPageService>;
