/**
 * What an admin may change on a custom tool: its risk (a JSON Merge Patch of the declaration) and
 * whether it exists. Lowering the risk and deleting ask first; raising the risk does not.
 */
import { useState } from "react";
import type { CatalogueTool } from "../api/types";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { WriteButton } from "../ui/write-button";
import { CatalogueError } from "./catalogue-error";
import { useDeleteTool, usePatchTool } from "./catalogue-queries";

export function ToolActions({ tool }: { tool: CatalogueTool }) {
  const patch = usePatchTool(tool.provider, tool.name);
  return (
    <div className="stack">
      <div className="button-row tool-actions">
        <RiskChange tool={tool} patch={patch} />
        <DeleteTool tool={tool} />
      </div>
      {/* Below the buttons, which never wrap: raising the risk asks nothing, so its refusal shows here. */}
      <CatalogueError error={patch.error} prefix="The risk was not changed" />
    </div>
  );
}

function RiskChange({ tool, patch }: { tool: CatalogueTool; patch: ReturnType<typeof usePatchTool> }) {
  const [confirming, setConfirming] = useState(false);
  const next = tool.risk === "high" ? "low" : "high";
  const change = () => patch.mutate({ declaration: { risk: next } }, { onSuccess: () => setConfirming(false) });
  return (
    <>
      <WriteButton
        busy={patch.isPending}
        aria-label={`Make ${next} risk: ${tool.name}`}
        title={next === "low" ? "Calls run without approval unless the policy says otherwise" : "Calls wait for an approval unless the policy says otherwise"}
        onClick={() => (patch.reset(), next === "low" ? setConfirming(true) : change())}
      >
        Make {next} risk
      </WriteButton>
      {confirming ? (
        <ConfirmDialog title={`Make ${tool.name} low risk?`} confirmLabel="Make low risk" onConfirm={change} onCancel={() => setConfirming(false)} busy={patch.isPending} error={patch.error} danger={false}>
          <p>Its calls will run without an approval unless a policy rule says otherwise.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

function DeleteTool({ tool }: { tool: CatalogueTool }) {
  const remove = useDeleteTool(tool.provider, tool.name);
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <WriteButton variant="danger" aria-label={`Delete ${tool.name}`} onClick={() => (remove.reset(), setConfirming(true))}>
        Delete
      </WriteButton>
      {confirming ? (
        <ConfirmDialog
          title={`Delete ${tool.name}?`}
          confirmLabel="Delete tool"
          onConfirm={() => remove.mutate(undefined, { onSuccess: () => setConfirming(false) })}
          onCancel={() => setConfirming(false)}
          busy={remove.isPending}
          error={remove.error}
        >
          <p>Agents can no longer call it, over the API or MCP. Its past calls stay in the audit log.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
