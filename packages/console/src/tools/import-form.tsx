/**
 * Import tools into a provider from an OpenAPI 3.0/3.1 document, pasted or read from a file:
 * Preview asks the broker with dry_run=true; Import then commits the same document. Editing the
 * document or the env after a preview asks for a new one.
 */
import { useId, useState, type ChangeEvent, type FormEvent } from "react";
import type { CatalogueEnv, ToolImportResult } from "../api/types";
import { useTenant } from "../tenant/tenant-context";
import { Notice } from "../ui/feedback";
import { WriteButton } from "../ui/write-button";
import { CatalogueError } from "./catalogue-error";
import { useImportTools } from "./catalogue-queries";
import { ImportPreview } from "./import-preview";

const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;

export function ImportForm({ provider }: { provider: string }) {
  const { canWrite } = useTenant();
  const id = useId();
  const importTools = useImportTools(provider);
  const [text, setText] = useState("");
  const [env, setEnv] = useState<CatalogueEnv>("both");
  const [result, setResult] = useState<ToolImportResult | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const changed = () => (setResult(null), importTools.reset());
  const run = (dryRun: boolean) => importTools.mutate({ dryRun, body: { document: text, env } }, { onSuccess: (answer) => (setResult(answer), dryRun ? undefined : setText("")) });
  const submit = (event: FormEvent) => (event.preventDefault(), run(true));
  const readFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    changed();
    if (file.size > MAX_DOCUMENT_BYTES) return setFileError(`${file.name} is ${file.size} bytes; at most ${MAX_DOCUMENT_BYTES} are imported.`);
    setFileError(null);
    setText(await file.text());
  };
  const previewed = result?.dry_run === true && result.data.length > 0;
  const committing = importTools.variables?.dryRun === false;

  return (
    <form className="card stack" onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Import tools into {provider} from an OpenAPI document</h3>
      <p className="field-hint">GET operations become read tools of low risk; POST, PUT, PATCH and DELETE become write tools of high risk, which wait for an approval until you lower their risk.</p>
      <div className="field">
        <label htmlFor={`${id}-document`}>OpenAPI document (JSON or YAML)</label>
        <textarea id={`${id}-document`} className="policy-editor import-document" value={text} spellCheck={false} disabled={!canWrite} onChange={(event) => (changed(), setText(event.target.value))} />
      </div>
      <div className="filters import-options">
        <div className="field">
          <label htmlFor={`${id}-file`}>Or read a file</label>
          <input id={`${id}-file`} type="file" accept=".json,.yaml,.yml,application/json,application/yaml" disabled={!canWrite} onChange={(event) => void readFile(event)} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-env`}>Env of the new tools</label>
          <select id={`${id}-env`} value={env} disabled={!canWrite} onChange={(event) => (changed(), setEnv(event.target.value as CatalogueEnv))}>
            <option value="both">test and live</option>
            <option value="test">test only</option>
            <option value="live">live only</option>
          </select>
        </div>
      </div>
      {fileError ? (
        <p className="message message-error" role="alert">
          {fileError}
        </p>
      ) : null}
      <CatalogueError error={importTools.error} prefix={committing ? "Nothing was imported" : "The document could not be previewed"} />
      <div className="button-row">
        <WriteButton type="submit" busy={importTools.isPending && !committing} disabled={!text.trim()}>
          Preview
        </WriteButton>
        {previewed ? (
          <WriteButton variant="primary" busy={importTools.isPending && committing} onClick={() => run(false)}>
            Import {result.data.length} tool{result.data.length === 1 ? "" : "s"}
          </WriteButton>
        ) : null}
      </div>
      {result && !result.dry_run ? <Notice tone="success">Imported {result.data.map((tool) => tool.name).join(", ")}.</Notice> : null}
      {result ? <ImportPreview result={result} /> : null}
    </form>
  );
}
