/**
 * Sandbox providers: local stand-ins for the vendors the broker connects to (GitHub, Slack, Linear), each on its own
 * 127.0.0.1 server with a random port, speaking the vendor's OAuth and API protocol shapes.
 * `npm run demo` runs the broker against them; the tests drive them through the controls described
 * in README.md in this folder. Never used in production.
 */
import { startGitHubFake } from "./github.js";
import { startLinearFake } from "./linear.js";
import { startSlackFake } from "./slack.js";
import type { FakeUpstreamOptions, FakeUpstreams } from "./types.js";

export type * from "./types.js";
export { pkceChallengeOf } from "./oauth-state.js";
export { ECHO_HEADER } from "./provider-core.js";
export { DEFAULT_GITHUB_USER } from "./github.js";
export { DEFAULT_SLACK_USER } from "./slack.js";
export { DEFAULT_LINEAR_USER } from "./linear.js";
export { completeAuthorization, newPkcePair, type AuthorizationResult } from "./oauth-test-client.js";

export async function startFakeUpstreams(options: FakeUpstreamOptions = {}): Promise<FakeUpstreams> {
  const settings = { ttlSeconds: options.accessTokenTtlSeconds ?? 3600, now: options.now ?? Date.now };
  const [github, slack, linear] = await Promise.all([startGitHubFake(settings), startSlackFake(settings), startLinearFake(settings)]);
  return {
    github: github.provider,
    slack: slack.provider,
    linear: linear.provider,
    close: async () => {
      await Promise.all([github.server.close(), slack.server.close(), linear.server.close()]);
    },
  };
}
