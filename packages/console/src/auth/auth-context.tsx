/**
 * Who is signed in: the session from sessionStorage, the development sign-in, sign-out, and
 * keeping an identity-provider session fresh (refresh a minute before expiry when a refresh token
 * was given; otherwise sign out at expiry with a message).
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { api, setUnauthorizedHandler } from "../api/client";
import type { ConsoleConfig } from "../api/types";
import { refreshSession } from "./oidc";
import { sessionStore, type StoredSession } from "./session-store";

type AuthState = {
  session: StoredSession | null;
  config: ConsoleConfig | undefined;
  configError: unknown;
  /** Why the operator was signed out, shown on the sign-in page. */
  notice: string | null;
  signInDevelopment(subject: string): Promise<void>;
  acceptSession(session: StoredSession): void;
  signOut(notice?: string): void;
};

const AuthContext = createContext<AuthState | null>(null);
const REFRESH_MARGIN_MS = 60_000;

function liveSession(): StoredSession | null {
  const stored = sessionStore.get();
  return stored && stored.expires_at > Date.now() ? stored : null;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [session, setSession] = useState<StoredSession | null>(liveSession);
  const [notice, setNotice] = useState<string | null>(null);
  const configQuery = useQuery({ queryKey: ["console-config"], queryFn: () => api("get", "/v1/console/config", { auth: "none" }), staleTime: Infinity, retry: 1 });
  const config = configQuery.data;

  const acceptSession = useCallback((next: StoredSession) => {
    sessionStore.set(next);
    setNotice(null);
    setSession(next);
  }, []);

  const signOut = useCallback(
    (why?: string) => {
      sessionStore.clear();
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== "console-config" });
      setNotice(why ?? null);
      setSession(null);
    },
    [queryClient],
  );

  const signInDevelopment = useCallback(
    async (subject: string) => {
      const { access_token, expires_in } = await api("post", "/v1/console/dev-session", { auth: "none", body: { subject } });
      acceptSession({ kind: "development", access_token, expires_at: Date.now() + expires_in * 1000 });
    },
    [acceptSession],
  );

  useEffect(() => {
    setUnauthorizedHandler((error) => signOut(`You were signed out: ${error.message}`));
    return () => setUnauthorizedHandler(undefined);
  }, [signOut]);

  useEffect(() => {
    if (!session) return;
    const canRefresh = session.kind === "oidc" && session.refresh_token && config;
    const due = session.expires_at - (canRefresh ? REFRESH_MARGIN_MS : 0) - Date.now();
    const timer = window.setTimeout(() => {
      if (!canRefresh) return signOut("Your session expired: sign in again.");
      refreshSession(config, session).then(acceptSession, () => signOut("Your session could not be renewed: sign in again."));
    }, Math.max(0, due));
    return () => window.clearTimeout(timer);
  }, [session, config, acceptSession, signOut]);

  const value = useMemo<AuthState>(
    () => ({ session, config, configError: configQuery.error, notice, signInDevelopment, acceptSession, signOut }),
    [session, config, configQuery.error, notice, signInDevelopment, acceptSession, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error("useAuth outside AuthProvider");
  return value;
}
