/** The signed-in frame: header with tenant and identity, navigation, then the page. */
import { useEffect, useRef } from "react";
import { NavLink, Outlet, useLocation } from "react-router-dom";
import { usePendingApprovals } from "../approvals/approval-queries";
import { useAuth } from "../auth/auth-context";
import { useTenant, useTenantState } from "../tenant/tenant-context";
import { Badge } from "../ui/bits";
import { Notice } from "../ui/feedback";

const PAGES: [string, string][] = [
  ["/approvals", "Approvals"],
  ["/connections", "Connections"],
  ["/api-keys", "API keys"],
  ["/agent-apps", "Agent apps"],
  ["/tools", "Tools"],
  ["/webhooks", "Webhooks"],
  ["/policy", "Policy"],
  ["/audit", "Audit log"],
  ["/usage", "Usage"],
  ["/settings", "Settings"],
];

export function Layout() {
  const tenant = useTenant();
  const pending = usePendingApprovals();
  const location = useLocation();
  const first = useRef(true);
  // After navigating, move focus to the new page's heading so screen readers announce it.
  useEffect(() => {
    document.querySelector(".nav-link.active")?.scrollIntoView({ block: "nearest", inline: "nearest" });
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById("page-title")?.focus();
  }, [location.pathname]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <nav className="nav" aria-label="Main">
        <ul>
          {PAGES.map(([path, name]) => (
            <li key={path}>
              <NavLink to={path} className="nav-link">
                {name}
              </NavLink>
              {path === "/approvals" ? <Badge count={pending.data?.length ?? 0} label="pending" /> : null}
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" className="main">
        {tenant.canWrite ? null : <Notice>{tenant.readOnlyReason} You can read every page; buttons that change things are disabled.</Notice>}
        <Outlet />
      </main>
    </div>
  );
}

function Header() {
  const { signOut } = useAuth();
  const { me, tenant, choose } = useTenantState();
  const tenants = me.data?.tenants ?? [];
  return (
    <header className="topbar">
      <span className="brand">Toolbroker console</span>
      <div className="topbar-controls">
        <label className="inline-field">
          <span>Tenant</span>
          <select value={tenant?.tenant_id ?? ""} onChange={(event) => choose(event.target.value || null)}>
            {tenants.map((entry) => (
              <option key={entry.tenant_id} value={entry.tenant_id}>
                {entry.name} ({entry.role})
              </option>
            ))}
          </select>
        </label>
        <span className="identity" title={me.data?.issuer}>
          {me.data?.subject}
        </span>
        <button type="button" className="button button-secondary" onClick={() => signOut()}>
          Sign out
        </button>
      </div>
    </header>
  );
}
