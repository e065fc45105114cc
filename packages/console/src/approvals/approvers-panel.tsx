/**
 * Who decides an approval: the rule in words, how many approving votes it has of how many it
 * needs, each vote (a vote on an earlier version of the call no longer counts), who is still
 * needed, and the operator's own part.
 */
import type { Approval, ApprovalRequirementRule, ApprovalVote } from "../api/types";
import { StatusTag } from "../ui/bits";
import { Time } from "../ui/time";
import { useMemberNames } from "./approval-queries";
import { EndUserLink } from "./end-user-link";

export function ruleInWords(rule: ApprovalRequirementRule): string {
  if (rule === "end_user") return "The end user the call acts for";
  if ("all_of" in rule) return rule.all_of.length === 1 ? "The one named member" : `Every one of ${rule.all_of.length} named members`;
  const people = rule.count === 1 ? "1 approver" : `${rule.count} approvers`;
  return rule.of === "admins" ? `${people} from the admins` : `${people} from the group “${rule.of.group}”`;
}

const VIA = { api: "API", console: "console", slack: "Slack", email: "email", end_user_page: "end-user page" } as const;

/** Members without a display name go by their sign-in subject (`names`, from GET /v1/members), never by a bare id where it can be helped. */
const voterName = (vote: ApprovalVote, names: Map<string, string>) =>
  vote.voter.kind === "member" ? (vote.voter.display_name ?? names.get(vote.voter.id) ?? vote.voter.id) : `end user ${vote.voter.id}`;

/** Who ended it: the names on the deciding votes, else the broker's record of the decider (`deciderName` turns an operator's issuer|subject into their name). */
export function decidedBy(approval: Approval, names: Map<string, string>, deciderName: (decidedBy: string) => string = (id) => id): string {
  if (approval.status === "expired") return "nobody (expired)";
  const decision = approval.status === "denied" ? "deny" : "approve";
  const deciding = approval.approvers.votes.filter((vote) => vote.digest === approval.digest && vote.decision === decision);
  return deciding.length > 0 ? deciding.map((vote) => voterName(vote, names)).join(", ") : (approval.decision?.decided_by ? deciderName(approval.decision.decided_by) : "—");
}

/** "1 of 2 approvals". */
export function progressInWords(approval: Approval): string {
  const { needed, approved } = approval.approvers;
  return `${approved} of ${needed} approval${needed === 1 ? "" : "s"}`;
}

export function YourPart({ you }: { you: Approval["you"] }) {
  if (!you) return null;
  if (you.vote) return <p className="your-part">You {you.vote === "approve" ? "approved" : "denied"} this call.</p>;
  if (!you.may_decide) return <p className="your-part muted">You are not one of its approvers.</p>;
  return <p className="your-part">Your decision is needed.</p>;
}

function VoteItem({ vote, current, names }: { vote: ApprovalVote; current: string; names: Map<string, string> }) {
  const stale = vote.digest !== current;
  return (
    <li className="vote">
      <span className="vote-who">{voterName(vote, names)}</span>
      {vote.decision === "approve" ? <StatusTag status="Approved" tone="good" /> : <StatusTag status="Denied" tone="bad" />}
      <span className="muted">
        via {VIA[vote.via]}, <Time value={vote.decided_at} />
      </span>
      {stale ? <span className="muted vote-stale">on the call before it was edited: no longer counts</span> : null}
      {vote.reason ? <span className="vote-reason">“{vote.reason}”</span> : null}
    </li>
  );
}

export function ApproversPanel({ approval, headingLevel = 3 }: { approval: Approval; headingLevel?: 2 | 3 }) {
  const { approvers } = approval;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const pending = approval.status === "pending";
  const endUser = approvers.rule === "end_user";
  const names = useMemberNames();
  return (
    <section className="approvers stack" aria-label="Approvers">
      <Heading className="approvers-heading">{endUser ? "Approver: the end user" : <>Approvers: <span className="approvers-progress">{progressInWords(approval)}</span></>}</Heading>
      {endUser ? null : (
        <p className="muted approvers-rule">
          {ruleInWords(approvers.rule)}
          {approvers.requester_may_approve ? "" : "; the member who created the agent app may not approve"}.
        </p>
      )}
      {approvers.votes.length > 0 ? (
        <ul className="plain-list votes" aria-label="Votes">
          {approvers.votes.map((vote, index) => (
            <VoteItem key={`${vote.voter.kind}:${vote.voter.id}:${index}`} vote={vote} current={approval.digest} names={names} />
          ))}
        </ul>
      ) : null}
      {pending && endUser ? <EndUserLink approval={approval} /> : null}
      {pending && approvers.waiting_for.length > 0 ? (
        <p className="waiting-for">
          <span className="muted">Still needed from: </span>
          {approvers.waiting_for.map((member) => member.display_name ?? names.get(member.member_id) ?? member.member_id).join(", ")}
        </p>
      ) : null}
      {pending && !endUser ? <YourPart you={approval.you} /> : null}
    </section>
  );
}
