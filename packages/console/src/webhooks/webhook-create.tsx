/** Registering an endpoint; its signing secret is shown once. */
import { useState, type FormEvent } from "react";
import type { CreatedWebhook } from "../api/types";
import { ErrorMessage } from "../ui/feedback";
import { Section } from "../ui/page";
import { SecretOnce } from "../ui/secret-once";
import { WriteButton } from "../ui/write-button";
import { EventPicker, type EventChoice } from "./event-picker";
import { useCreateWebhook } from "./webhook-queries";

export function WebhookCreate() {
  const create = useCreateWebhook();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [events, setEvents] = useState<EventChoice>(null);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setCreated(null);
    create.mutate(
      { url: url.trim(), events, ...(description.trim() ? { description: description.trim() } : {}) },
      { onSuccess: (endpoint) => (setCreated(endpoint), setUrl(""), setDescription(""), setEvents(null)) },
    );
  };
  return (
    <Section title="Add an endpoint" id="webhook-create-heading">
      <form className="card stack" onSubmit={submit}>
        <div className="field">
          <label htmlFor="webhook-url">Endpoint URL</label>
          <input id="webhook-url" type="url" value={url} onChange={(event) => setUrl(event.target.value)} required placeholder="https://example.com/webhooks/toolbroker" />
        </div>
        <div className="field">
          <label htmlFor="webhook-description">Description (optional)</label>
          <input id="webhook-description" value={description} maxLength={500} onChange={(event) => setDescription(event.target.value)} />
        </div>
        <EventPicker value={events} onChange={setEvents} />
        <ErrorMessage error={create.error} prefix="The endpoint was not created" />
        <div>
          <WriteButton type="submit" variant="primary" busy={create.isPending} disabled={url.trim() === "" || (events !== null && events.length === 0)}>
            Create webhook
          </WriteButton>
        </div>
      </form>
      {created ? <SecretOnce label={`Signing secret for ${created.url}`} value={created.secret} onDismiss={() => setCreated(null)} /> : null}
    </Section>
  );
}
