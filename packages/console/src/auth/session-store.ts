/**
 * The signed-in session and the chosen tenant, kept in sessionStorage: per tab, gone with the
 * tab, never in localStorage and never in a URL.
 */
export type StoredSession = {
  kind: "development" | "oidc";
  access_token: string;
  /** Epoch milliseconds. */
  expires_at: number;
  refresh_token?: string;
};

const SESSION_KEY = "toolbroker.console.session";
const TENANT_KEY = "toolbroker.console.tenant";

function read<T>(key: string): T | null {
  try {
    const raw = sessionStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export const sessionStore = {
  get: () => read<StoredSession>(SESSION_KEY),
  set: (session: StoredSession) => sessionStorage.setItem(SESSION_KEY, JSON.stringify(session)),
  clear: () => {
    sessionStorage.removeItem(SESSION_KEY);
    sessionStorage.removeItem(TENANT_KEY);
  },
};

export const tenantStore = {
  get: () => read<string>(TENANT_KEY),
  set: (tenantId: string) => sessionStorage.setItem(TENANT_KEY, JSON.stringify(tenantId)),
  clear: () => sessionStorage.removeItem(TENANT_KEY),
};
