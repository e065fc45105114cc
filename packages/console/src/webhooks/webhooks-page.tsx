import { EmptyState, ErrorMessage, Loading } from "../ui/feedback";
import { PageHeader, Section } from "../ui/page";
import { WebhookCard } from "./webhook-card";
import { WebhookCreate } from "./webhook-create";
import { useWebhooks } from "./webhook-queries";

export function WebhooksPage() {
  const webhooks = useWebhooks();
  return (
    <>
      <PageHeader title="Webhooks">
        <p>The broker signs every delivery (Standard Webhooks) with the endpoint's secret and retries failures.</p>
      </PageHeader>
      <WebhookCreate />
      <Section title="Endpoints" id="endpoints-heading">
        {webhooks.isPending ? <Loading label="Loading endpoints…" /> : null}
        <ErrorMessage error={webhooks.error} prefix="The endpoints could not be loaded" />
        {webhooks.data?.data.length === 0 ? <EmptyState>No webhook endpoints yet.</EmptyState> : null}
        {webhooks.data?.data.map((endpoint) => <WebhookCard key={endpoint.id} endpoint={endpoint} />)}
      </Section>
    </>
  );
}
