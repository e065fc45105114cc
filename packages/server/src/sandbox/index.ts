/**
 * Sandbox providers: local stand-ins for the vendors the broker connects to, each on its own
 * 127.0.0.1 server with a random port, speaking the vendor's OAuth and API protocol shapes:
 * hand-written GitHub, Slack and Linear fakes, and one described sandbox (./described) for every
 * other built-in provider, served from the vendor's OpenAPI description.
 * `npm run demo` runs the broker against them; the tests drive them through the controls described
 * in README.md in this folder. Never used in production.
 */
import { BUILT_IN_PROVIDERS } from "../providers/built-in.js";
import { startDescribedSandbox, type DescribedSandbox } from "./described/described-sandbox.js";
import { startGitHubFake } from "./github.js";
import { startLinearFake } from "./linear.js";
import { startSlackFake } from "./slack.js";
import type { FakeUpstreamOptions, GitHubFake, LinearFake, SlackFake } from "./types.js";

export type * from "./types.js";
export { pkceChallengeOf } from "./oauth-state.js";
export { ECHO_HEADER } from "./provider-core.js";
export { DEFAULT_GITHUB_USER } from "./github.js";
export { DEFAULT_SLACK_USER } from "./slack.js";
export { DEFAULT_LINEAR_USER } from "./linear.js";
export type { DescribedSandbox } from "./described/described-sandbox.js";
export { startDescribedSandbox } from "./described/described-sandbox.js";
export { completeAuthorization, newPkcePair, type AuthorizationResult } from "./oauth-test-client.js";

export type FakeUpstreams = {
  github: GitHubFake;
  slack: SlackFake;
  linear: LinearFake;
  /** A described sandbox (./described) for every other built-in provider, by provider id. */
  described: Record<string, DescribedSandbox>;
  /** Every fake's BROKER_PROVIDER_<ID>_* settings together. */
  env: Record<string, string>;
  close(): Promise<void>;
};

/** The providers the hand-written fakes serve; every other built-in one gets a described sandbox. */
const HAND_WRITTEN = new Set(["scm", "chat", "tracker"]);

export async function startFakeUpstreams(options: FakeUpstreamOptions = {}): Promise<FakeUpstreams> {
  const settings = { ttlSeconds: options.accessTokenTtlSeconds ?? 3600, now: options.now ?? Date.now };
  const describedProviders = BUILT_IN_PROVIDERS.filter((provider) => !HAND_WRITTEN.has(provider.declaration.id));
  const [github, slack, linear, ...described] = await Promise.all([
    startGitHubFake(settings),
    startSlackFake(settings),
    startLinearFake(settings),
    ...describedProviders.map((provider) => startDescribedSandbox({ provider, ...settings })),
  ]);
  const servers = [github.server, slack.server, linear.server, ...described.map((sandbox) => sandbox.server)];
  const byId = Object.fromEntries(described.map((sandbox) => [sandbox.provider.providerId, sandbox.provider]));
  return {
    github: github.provider,
    slack: slack.provider,
    linear: linear.provider,
    described: byId,
    env: Object.assign({}, github.provider.env, slack.provider.env, linear.provider.env, ...described.map((sandbox) => sandbox.provider.env)),
    close: async () => {
      await Promise.all(servers.map((server) => server.close()));
    },
  };
}
