import type { Approval } from "../api/types";
import { StatusTag } from "../ui/bits";

const TONES = { pending: "warn", approved: "good", denied: "bad", expired: "neutral", consumed: "good" } as const;
const WORDS = { pending: "Pending", approved: "Approved", denied: "Denied", expired: "Expired", consumed: "Approved and used" } as const;

export function ApprovalStatus({ status }: { status: Approval["status"] }) {
  return <StatusTag status={WORDS[status]} tone={TONES[status]} />;
}
