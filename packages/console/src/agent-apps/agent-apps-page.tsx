import { PageHeader } from "../ui/page";
import { AgentAppSection } from "./agent-app-section";
import { ControlKeySection } from "./control-key-section";

export function AgentAppsPage() {
  return (
    <>
      <PageHeader title="Agent apps">
        <p>Agent apps are the agents your backend mints broker JWTs for; control keys let that backend do it.</p>
      </PageHeader>
      <AgentAppSection />
      <ControlKeySection />
    </>
  );
}
