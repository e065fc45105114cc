/** Routes: the OIDC callback, then sign-in and tenant gates in front of the console's pages. */
import { lazy, Suspense } from "react";
import { Navigate, Route, Routes } from "react-router-dom";
import { AgentAppsPage } from "./agent-apps/agent-apps-page";
import { ApiKeysPage } from "./secrets/api-keys-page";
import { ApprovalDetailPage } from "./approvals/approval-detail-page";
import { ApprovalsPage } from "./approvals/approvals-page";
import { AuditPage } from "./audit/audit-page";
import { useAuth } from "./auth/auth-context";
import { tenantStore } from "./auth/session-store";
import { CallbackPage } from "./auth/callback-page";
import { SignInPage } from "./auth/sign-in-page";
import { ConnectionsPage } from "./connections/connections-page";
import { PolicyPage } from "./policy/policy-page";
import { SettingsPage } from "./settings/settings-page";
import { Layout } from "./shell/layout";
import { NotFoundPage } from "./shell/not-found-page";
import { useTenantState } from "./tenant/tenant-context";
import { TenantPickerPage } from "./tenant/tenant-picker";
import { Loading } from "./ui/feedback";
import { ToolsPage } from "./tools/tools-page";
import { WebhooksPage } from "./webhooks/webhooks-page";

// The Usage page's charts (recharts) are half the bundle's weight: loaded when the page is opened.
// A chunk that cannot be fetched (the broker was updated since this tab loaded) says so instead of blanking the console.
const UsagePage = lazy(() =>
  import("./usage/usage-page").then(
    (module) => ({ default: module.UsagePage }),
    () => ({ default: UsagePageUnavailable }),
  ),
);

function UsagePageUnavailable() {
  return (
    <p className="message message-error" role="alert">
      <span className="message-icon" aria-hidden="true">!</span>
      The Usage page could not be loaded, perhaps because the broker was updated since this tab opened: reload the page.
    </p>
  );
}

export function App() {
  return (
    <Routes>
      <Route path="/callback" element={<CallbackPage />} />
      <Route path="*" element={<Gates />} />
    </Routes>
  );
}

function Gates() {
  const { session } = useAuth();
  const { tenant, me } = useTenantState();
  if (!session) return <SignInPage />;
  // A remembered tenant waits for /v1/me rather than flashing the picker on reload.
  if (!tenant && me.isPending && tenantStore.get()) return <Loading label="Loading your tenants…" />;
  if (!tenant) return <TenantPickerPage />;
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Navigate to="/approvals" replace />} />
        <Route path="approvals" element={<ApprovalsPage />} />
        <Route path="approvals/:id" element={<ApprovalDetailPage />} />
        <Route path="connections" element={<ConnectionsPage />} />
        <Route path="api-keys" element={<ApiKeysPage />} />
        <Route path="agent-apps" element={<AgentAppsPage />} />
        <Route path="tools" element={<ToolsPage />} />
        <Route path="webhooks" element={<WebhooksPage />} />
        <Route path="policy" element={<PolicyPage />} />
        <Route path="audit" element={<AuditPage />} />
        <Route
          path="usage"
          element={
            <Suspense fallback={<Loading label="Loading the Usage page…" />}>
              <UsagePage />
            </Suspense>
          }
        />
        <Route path="settings" element={<SettingsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
