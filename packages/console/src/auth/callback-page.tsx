/**
 * /console/callback: the identity provider sends the browser back here with a code. The code is
 * exchanged once, the URL replaced at once (no code or token stays in history), then the
 * operator goes where they were heading.
 */
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router-dom";
import { ErrorMessage, Loading } from "../ui/feedback";
import { usePageTitle } from "../ui/page";
import { useAuth } from "./auth-context";
import { completeSignIn } from "./oidc";

export function CallbackPage() {
  usePageTitle("Signing in");
  const { config, configError, acceptSession } = useAuth();
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const callbackUrl = useRef(new URL(window.location.href));
  const started = useRef(false);

  useEffect(() => {
    // Drop ?code=&state= from the address bar and history before anything else.
    window.history.replaceState(null, "", window.location.pathname);
    if (!config || started.current) return;
    started.current = true;
    completeSignIn(config, callbackUrl.current).then(
      ({ session, returnTo }) => {
        acceptSession(session);
        navigate(returnTo.startsWith("/") && !returnTo.startsWith("/callback") ? returnTo : "/", { replace: true });
      },
      (caught: unknown) => setError(caught),
    );
  }, [config, acceptSession, navigate]);

  return (
    <main id="main" className="sign-in">
      <h1>Signing in</h1>
      {error || configError ? (
        <>
          <ErrorMessage error={error ?? configError} prefix="Sign-in failed" />
          <Link to="/" replace>
            Back to sign-in
          </Link>
        </>
      ) : (
        <Loading label="Completing sign-in…" />
      )}
    </main>
  );
}
