/** Declare a custom provider from its JSON declaration (the format GET /v1/catalogue/schema publishes). */
import { useId, useState, type FormEvent } from "react";
import type { CatalogueEnv } from "../api/types";
import { useTenant } from "../tenant/tenant-context";
import { Notice } from "../ui/feedback";
import { WriteButton } from "../ui/write-button";
import { CatalogueError } from "./catalogue-error";
import { useCreateProvider } from "./catalogue-queries";

const EXAMPLE = JSON.stringify(
  { id: "tasks", display_name: "Tasks", api_base_url: "https://tasks.example.com/api", auth: { type: "api_key", in: "header", name: "X-Api-Key" } },
  null,
  2,
);

export function ProviderDeclare({ onCreated }: { onCreated(id: string): void }) {
  const { canWrite } = useTenant();
  const id = useId();
  const create = useCreateProvider();
  const [text, setText] = useState(EXAMPLE);
  const [env, setEnv] = useState<CatalogueEnv>("both");
  const [parseError, setParseError] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCreated(null);
    let declaration: Record<string, unknown>;
    try {
      declaration = JSON.parse(text) as Record<string, unknown>;
    } catch (error) {
      return setParseError(`The declaration is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof declaration !== "object" || declaration === null || Array.isArray(declaration)) return setParseError("The declaration must be a JSON object.");
    setParseError(null);
    create.mutate({ env, declaration }, { onSuccess: (provider) => (setCreated(provider.id), onCreated(provider.id)) });
  };

  return (
    <details className="card">
      <summary>Declare a provider of your own</summary>
      <form className="stack declare-form" onSubmit={submit}>
        <p className="field-hint">
          Its API and how a credential travels (oauth2, or an API key in a header or query parameter), in <a href="/v1/catalogue/schema">the declaration format</a>. Tools are then imported or declared under it.
        </p>
        <div className="field">
          <label htmlFor={`${id}-declaration`}>Provider declaration (JSON)</label>
          <textarea id={`${id}-declaration`} className="policy-editor declare-document" value={text} spellCheck={false} disabled={!canWrite} onChange={(event) => setText(event.target.value)} aria-invalid={parseError !== null} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-env`}>Env</label>
          <select id={`${id}-env`} value={env} disabled={!canWrite} onChange={(event) => setEnv(event.target.value as CatalogueEnv)}>
            <option value="both">test and live</option>
            <option value="test">test only</option>
            <option value="live">live only</option>
          </select>
        </div>
        {parseError ? (
          <p className="message message-error" role="alert">
            {parseError}
          </p>
        ) : null}
        <CatalogueError error={create.error} prefix="The provider was not declared" />
        {created ? <Notice tone="success">Declared {created}: it is selected above.</Notice> : null}
        <div>
          <WriteButton type="submit" variant="primary" busy={create.isPending} disabled={!text.trim()}>
            Declare provider
          </WriteButton>
        </div>
      </form>
    </details>
  );
}
