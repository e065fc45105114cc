/**
 * An agent in its own process (as a real one is: in the test's process the broker and the client
 * share one event loop, which hides a lost answer) that executes a tool with oversized arguments
 * several times and prints, as JSON on stdout, what the client threw each time.
 *
 *   node --import tsx oversized-execute.ts <baseUrl> <token> <connectedAccountId> <bytes> <tries>
 */
import { AgentClient, isBrokerError } from "../../src/index.js";

export type Thrown = { name: string; code?: string; status?: number; message: string; requestId?: string | undefined; limitBytes?: number | undefined };

const [baseUrl, token, connectedAccountId, bytes, tries] = process.argv.slice(2) as [string, string, string, string, string];
const client = new AgentClient({ baseUrl, token, retry: { baseDelayMs: 20, maxDelayMs: 100 } });
const outcomes: Thrown[] = [];
for (let i = 0; i < Number(tries); i += 1) {
  try {
    await client.execute({ tool_name: "scm.get_authenticated_user", arguments: { padding: "x".repeat(Number(bytes)) }, connected_account_id: connectedAccountId });
    outcomes.push({ name: "no error", message: "" });
  } catch (error) {
    const thrown = error as Error & { limitBytes?: number };
    outcomes.push(
      isBrokerError(error)
        ? { name: error.name, code: error.code, status: error.status, message: error.message, requestId: error.requestId, limitBytes: thrown.limitBytes }
        : { name: thrown.name, message: thrown.message },
    );
  }
}
process.stdout.write(JSON.stringify(outcomes));
