/** Choosing the tenant to work in, after sign-in or from the header. */
import { useAuth } from "../auth/auth-context";
import { EmptyState, ErrorMessage, Loading } from "../ui/feedback";
import { usePageTitle } from "../ui/page";
import { useTenantState } from "./tenant-context";

export function TenantPickerPage() {
  usePageTitle("Choose a tenant");
  const { me, choose } = useTenantState();
  const { signOut } = useAuth();
  return (
    <main id="main" className="sign-in">
      <h1>Choose a tenant</h1>
      {me.isPending ? <Loading label="Loading your tenants…" /> : null}
      <ErrorMessage error={me.error} prefix="Your tenants could not be loaded" />
      {me.data ? (
        <>
          <p>
            Signed in as <strong>{me.data.subject}</strong> <span className="muted">({me.data.issuer})</span>.
          </p>
          {me.data.tenants.length === 0 ? (
            <EmptyState>This identity is not a member of any tenant. Ask an admin to add you (toolbroker members add).</EmptyState>
          ) : (
            <ul className="tenant-list">
              {me.data.tenants.map((tenant) => (
                <li key={tenant.tenant_id}>
                  <button type="button" className="button button-secondary tenant-button" onClick={() => choose(tenant.tenant_id)}>
                    {tenant.name}
                  </button>
                  <span className="muted"> Role: {tenant.role}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      ) : null}
      <button type="button" className="button button-secondary" onClick={() => signOut()}>
        Sign out
      </button>
    </main>
  );
}
