import type { ApprovalRisk as Risk } from "../api/types";
import { StatusTag } from "../ui/bits";

/** The tool's risk in words (the marker and colour only repeat them); null: the tool left the catalogue. */
export function ApprovalRisk({ risk }: { risk: Risk }) {
  if (risk === "high") return <StatusTag status="High risk" tone="warn" />;
  if (risk === "low") return <StatusTag status="Low risk" tone="neutral" />;
  return <StatusTag status="Risk unknown (tool no longer in the catalogue)" tone="neutral" />;
}
