/**
 * Sign-in: by subject with the broker's development issuer, otherwise a redirect to the identity
 * provider. Rendered at whatever URL was asked for, so a deep link survives signing in.
 */
import { useState, type FormEvent } from "react";
import { useLocation } from "react-router-dom";
import { ErrorMessage, Loading, Notice } from "../ui/feedback";
import { usePageTitle } from "../ui/page";
import { useAuth } from "./auth-context";
import { startSignIn } from "./oidc";

export function SignInPage() {
  usePageTitle("Sign in");
  const { config, configError, notice } = useAuth();
  return (
    <main id="main" className="sign-in">
      <h1>Toolbroker console</h1>
      {notice ? <Notice>{notice}</Notice> : null}
      {configError ? <ErrorMessage error={configError} prefix="The sign-in settings could not be loaded" /> : null}
      {!config && !configError ? <Loading label="Loading sign-in settings…" /> : null}
      {config?.development ? <DevelopmentSignIn defaultSubject={config.default_subject ?? ""} /> : null}
      {config && !config.development ? <IdentityProviderSignIn /> : null}
    </main>
  );
}

function DevelopmentSignIn({ defaultSubject }: { defaultSubject: string }) {
  const { signInDevelopment } = useAuth();
  const [subject, setSubject] = useState(defaultSubject);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signInDevelopment(subject.trim());
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };
  return (
    <form className="card stack" onSubmit={submit}>
      <p>This broker runs its development identity provider: sign in as any operator subject.</p>
      <div className="field">
        <label htmlFor="subject">Subject</label>
        <input id="subject" name="subject" value={subject} onChange={(event) => setSubject(event.target.value)} required autoComplete="username" />
      </div>
      <ErrorMessage error={error} prefix="Sign-in failed" />
      <button type="submit" className="button button-primary" disabled={busy || subject.trim() === ""} aria-busy={busy || undefined}>
        Sign in
      </button>
    </form>
  );
}

function IdentityProviderSignIn() {
  const { config } = useAuth();
  const location = useLocation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const start = async () => {
    if (!config) return;
    setBusy(true);
    setError(null);
    try {
      await startSignIn(config, location.pathname + location.search);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };
  return (
    <div className="card stack">
      <p>
        Sign in with your organisation's identity provider (<span className="mono">{config?.issuer}</span>).
      </p>
      <ErrorMessage error={error} prefix="Sign-in could not start" />
      <button type="button" className="button button-primary" onClick={start} disabled={busy} aria-busy={busy || undefined}>
        Sign in
      </button>
    </div>
  );
}
