import { useEffect, useRef, useState } from "react";
import type { Env } from "../api/types";
import { PageHeader } from "../ui/page";
import { PolicyEditor } from "./policy-editor";
import { usePolicyVersions } from "./policy-queries";
import { SimulateForm } from "./simulate-form";
import { VersionHistory, viewButtonId } from "./version-history";
import { VersionViewer } from "./version-viewer";

export function PolicyPage() {
  const [env, setEnv] = useState<Env>("test");
  // The saved version shown read-only in place of the editor, if any.
  const [viewing, setViewing] = useState<number | null>(null);
  const versions = usePolicyVersions(env);
  // Back from the viewer, focus returns to the button that opened it.
  const lastViewed = useRef<number | null>(null);
  useEffect(() => {
    if (viewing !== null) lastViewed.current = viewing;
    else if (lastViewed.current !== null) {
      document.getElementById(viewButtonId(lastViewed.current))?.focus();
      lastViewed.current = null;
    }
  }, [viewing]);

  return (
    <>
      <PageHeader title="Policy">
        <label className="inline-field">
          <span>Environment</span>
          <select value={env} onChange={(event) => (setEnv(event.target.value as Env), (lastViewed.current = null), setViewing(null))}>
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </label>
      </PageHeader>
      {viewing !== null ? <VersionViewer env={env} version={viewing} current={versions.data?.data[0]?.version} onBack={() => setViewing(null)} /> : null}
      <div hidden={viewing !== null}>
        <PolicyEditor key={env} env={env} />
      </div>
      <VersionHistory env={env} viewing={viewing} onView={setViewing} />
      <SimulateForm env={env} />
    </>
  );
}
