/**
 * How execute answers when the upstream does not simply succeed: a 401 (or a vendor's in-band
 * auth error) triggers exactly one refresh and one retry; any other failure — 4xx, 5xx, a
 * redirect, an oversized body, a network failure or a timeout — is 502 upstream_error, with the
 * upstream's status and scrubbed message in the details.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrokerError } from "../src/errors.js";
import { buildUpstreamUrl, createUpstreamClient, MAX_UPSTREAM_RESPONSE_BYTES } from "../src/providers/upstream-client.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { startFakeUpstreams } from "./support/fake-upstreams/index.js";
import { connect, execute, startToolWorld, storeLinearKey, type ToolWorld } from "./support/tool-execution.js";

describeEachDatabase("POST /v1/tools/execute: upstream failures", (kind) => {
  let world: ToolWorld;
  let scm: string;
  let chat: string;
  let tracker: string;

  beforeAll(async () => {
    world = await startToolWorld(kind);
    [scm, chat, tracker] = [await connect(world, "scm"), await connect(world, "chat"), await connect(world, "tracker")];
  });
  afterAll(() => world.close());

  const github = () => world.fakes.github;
  const getUser = () => execute(world.broker, world.jwt, { tool_name: "scm.get_authenticated_user", connected_account_id: scm });

  it("on a 401, refreshes the token once and retries once with the new token", async () => {
    github().expireAllAccessTokens();
    const [calls, refreshes] = [github().stats.apiCalls.length, github().stats.refreshGrants];
    const result = await getUser();
    expect(result.status, result.text).toBe(200);
    expect(result.body.result.login).toBe("octocat");
    expect(github().stats.refreshGrants).toBe(refreshes + 1);
    const [first, retry] = github().stats.apiCalls.slice(calls);
    expect(github().stats.apiCalls.length).toBe(calls + 2);
    expect(retry!.authorization).not.toBe(first!.authorization);
    expect(github().issuedSecrets()).toContain(retry!.authorization!.replace("Bearer ", ""));

    const again = await getUser();
    expect(again.status).toBe(200);
    expect(github().stats.refreshGrants).toBe(refreshes + 1);
    expect(github().stats.apiCalls.at(-1)!.authorization).toBe(retry!.authorization);
  });

  it("gives up after the one retry: a second 401 is 502 upstream_error with upstream_status 401", async () => {
    const [calls, refreshes] = [github().stats.apiCalls.length, github().stats.refreshGrants];
    github().failNext(2, { status: 401, body: { message: "Bad credentials", documentation_url: "https://docs.github.com/rest", status: "401" } });
    const result = await getUser();
    expectError(result, 502, "upstream_error");
    expect(result.body.error.details).toMatchObject({ upstream_status: 401, upstream_message: "Bad credentials" });
    expect(github().stats.apiCalls.length).toBe(calls + 2);
    expect(github().stats.refreshGrants).toBe(refreshes + 1);
    expect((await getUser()).status).toBe(200);
  });

  it("answers 422 connection_unusable, not the provider's 401, when the connection is revoked while its call is retried", async () => {
    const doomed = await connect(world, "scm");
    // Each answer takes 600 ms: the revoke starts 200 ms into the retry's wait and has 400 ms, even on
    // a loaded machine, to revoke the renewed tokens upstream and mark the connection before the
    // provider looks at the retry's token.
    github().setApiDelay(600);
    try {
      // The first answer is a 401; the tokens are renewed and the call retried. While the retry is
      // on its way, an operator revokes the connection, which revokes the renewed tokens upstream.
      github().failNext(1, { status: 401, body: { message: "Bad credentials" } });
      const running = execute(world.broker, world.jwt, { tool_name: "scm.get_authenticated_user", connected_account_id: doomed });
      await new Promise((resolve) => setTimeout(resolve, 800));
      const revoked = await call(world.broker, "DELETE", `/v1/connections/${doomed}`, asOperator(world.tenant));
      expect(revoked.status, revoked.text).toBe(200);
      const result = await running;
      expectError(result, 422, "connection_unusable");
      expect(result.body.error.details).toMatchObject({ connection_status: "revoked", reconnect_required: true });
    } finally {
      github().setApiDelay(0);
    }
  });

  it("treats Slack's in-band token_expired (HTTP 200, ok:false) as a 401: one refresh, one retry", async () => {
    const slack = world.fakes.slack;
    const [calls, refreshes] = [slack.stats.apiCalls.length, slack.stats.refreshGrants];
    slack.failNext(1, { status: 200, body: { ok: false, error: "token_expired" } });
    const result = await execute(world.broker, world.jwt, { tool_name: "chat.list_channels", connected_account_id: chat });
    expect(result.status, result.text).toBe(200);
    expect(slack.stats.apiCalls.length).toBe(calls + 2);
    expect(slack.stats.refreshGrants).toBe(refreshes + 1);
  });

  it("treats Linear's AUTHENTICATION_ERROR as a 401: one refresh, one retry", async () => {
    const linear = world.fakes.linear;
    const refreshes = linear.stats.refreshGrants;
    linear.failNext(1, { status: 401, body: { errors: [{ message: "Authentication required", extensions: { code: "AUTHENTICATION_ERROR" } }] } });
    const result = await execute(world.broker, world.jwt, { tool_name: "tracker.list_issues", connected_account_id: tracker });
    expect(result.status, result.text).toBe(200);
    expect(linear.stats.refreshGrants).toBe(refreshes + 1);
  });

  it("does not retry a 401 for a personal API key, which cannot be refreshed", async () => {
    const key = await storeLinearKey(world);
    const linear = world.fakes.linear;
    const [calls, tokenRequests] = [linear.stats.apiCalls.length, linear.stats.tokenRequests];
    linear.failNext(1, { status: 401, body: { errors: [{ message: "Invalid API key", extensions: { code: "AUTHENTICATION_ERROR" } }] } });
    const result = await execute(world.broker, world.jwt, { tool_name: "tracker.list_issues", secret_item_id: key.secretItemId });
    expectError(result, 502, "upstream_error");
    expect(result.body.error.details).toMatchObject({ upstream_status: 401, upstream_message: "Invalid API key" });
    expect(linear.stats.apiCalls.length).toBe(calls + 1);
    expect(linear.stats.tokenRequests).toBe(tokenRequests);
  });

  it("answers an upstream 5xx with 502 upstream_error and the upstream status, without retrying", async () => {
    for (const status of [500, 502, 503]) {
      const calls = github().stats.apiCalls.length;
      github().failNext(1, { status, body: { message: "Server Error" } });
      const result = await getUser();
      expectError(result, 502, "upstream_error");
      expect(result.body.error.details).toMatchObject({ upstream_status: status, upstream_message: "Server Error" });
      expect(result.body.error.details.invocation_id).toBeTruthy();
      expect(github().stats.apiCalls.length).toBe(calls + 1);
    }
  });

  it("answers GitHub's own 4xx errors with 502 upstream_error, upstream_status and GitHub's message", async () => {
    const missing = await execute(world.broker, world.jwt, { tool_name: "scm.get_repository", arguments: { owner: "octocat", repo: "no-such-repo" }, connected_account_id: scm });
    expectError(missing, 502, "upstream_error");
    expect(missing.body.error.details).toMatchObject({ upstream_status: 404, upstream_message: "Not Found" });
    const invalid = await execute(world.broker, world.jwt, {
      tool_name: "scm.create_issue",
      arguments: { owner: "octocat", repo: "hello-world", title: "x", assignees: ["someone-else"] },
      connected_account_id: scm,
    });
    expectError(invalid, 502, "upstream_error");
    expect(invalid.body.error.details).toMatchObject({ upstream_status: 422, upstream_message: "Validation Failed" });
  });

  it("answers a 429 from the upstream with 502 upstream_error and upstream_status 429", async () => {
    github().failNext(1, { status: 429, body: { message: "API rate limit exceeded" }, headers: { "retry-after": "30" } });
    const result = await getUser();
    expectError(result, 502, "upstream_error");
    expect(result.body.error.details).toMatchObject({ upstream_status: 429, upstream_message: "API rate limit exceeded" });
  });

  it("answers Slack's and Linear's in-band errors (HTTP 200) with 502 upstream_error and the vendor's message", async () => {
    const slack = await execute(world.broker, world.jwt, { tool_name: "chat.post_message", arguments: { channel: "secret-project", text: "hi" }, connected_account_id: chat });
    expectError(slack, 502, "upstream_error");
    expect(slack.body.error.details).toMatchObject({ upstream_status: 200, upstream_message: "channel_not_found" });
    const linear = await execute(world.broker, world.jwt, { tool_name: "tracker.create_issue", arguments: { team_id: "no-such-team", title: "x" }, connected_account_id: tracker });
    expectError(linear, 502, "upstream_error");
    expect(linear.body.error.details.upstream_status).toBe(200);
    expect(typeof linear.body.error.details.upstream_message).toBe("string");
  });

  it("never follows a redirect: a 302 from the upstream is 502 upstream_error, and nothing else is called", async () => {
    const target = await startFakeUpstreams();
    try {
      const calls = github().stats.apiCalls.length;
      github().failNext(1, { status: 302, headers: { location: `${target.github.url}/user` } });
      const result = await getUser();
      expectError(result, 502, "upstream_error");
      expect(result.body.error.details.upstream_status).toBe(302);
      expect(github().stats.apiCalls.length).toBe(calls + 1);
      expect(target.github.stats.apiCalls).toEqual([]);
    } finally {
      await target.close();
    }
  });

  it("refuses an upstream body over the documented size bound with 502 upstream_error", async () => {
    const huge = Array.from({ length: Math.ceil(MAX_UPSTREAM_RESPONSE_BYTES / 1000) + 10 }, () => "x".repeat(1000));
    github().failNext(1, { status: 200, body: { login: "octocat", padding: huge } });
    const result = await getUser();
    expectError(result, 502, "upstream_error");
    expect(result.body.error.details.reason).toBe("too_large");
    expect(result.body.error.details.limit_bytes).toBe(MAX_UPSTREAM_RESPONSE_BYTES);
    expect(result.body.error.message).toBe("the upstream response is larger than 5 MiB (5,242,880 bytes), the most the broker reads");
  });
});

describeEachDatabase("POST /v1/tools/execute: an unreachable upstream", (kind) => {
  let world: ToolWorld;
  let scm: string;
  beforeAll(async () => {
    world = await startToolWorld(kind);
    scm = await connect(world, "scm");
    await world.fakes.close();
  });
  afterAll(() => world.close());

  it("answers 502 upstream_error (reason network) when the upstream cannot be reached", async () => {
    const result = await execute(world.broker, world.jwt, { tool_name: "scm.get_authenticated_user", connected_account_id: scm });
    expectError(result, 502, "upstream_error");
    expect(result.body.error.details.reason).toBe("network");
    expect(result.body.error.details.upstream_status).toBeUndefined();
  });
});

describe("the upstream client", () => {
  it("gives up after its timeout with upstream_error (reason timeout)", async () => {
    const fakes = await startFakeUpstreams();
    const client = createUpstreamClient({ timeoutMs: 200 });
    try {
      fakes.github.setApiDelay(2_000);
      const failure = await client.send(fakes.github.url, { method: "GET", path: "/user", headers: { "user-agent": "t" } }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(BrokerError);
      expect(failure).toMatchObject({ code: "upstream_error", status: 502, details: { reason: "timeout" } });
    } finally {
      await client.close();
      await fakes.close();
    }
  });

  it("gives up on a body that is still arriving at its timeout, and the next call on the same client is answered", async () => {
    let requests = 0;
    const server = createServer((request, response) => {
      requests += 1;
      response.writeHead(200, { "content-type": "application/json" });
      if (request.url === "/slow") response.write('{"login":"oct');
      else response.end('{"login":"octocat"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = createUpstreamClient({ timeoutMs: 300 });
    try {
      const failure = await client.send(origin, { method: "GET", path: "/slow" }).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: "upstream_error", status: 502, details: { reason: "timeout" } });
      const answered = await client.send(origin, { method: "GET", path: "/fast" });
      expect(answered).toMatchObject({ status: 200, body: { login: "octocat" } });
      expect(answered.headers["content-type"]).toBe("application/json");
      expect(requests).toBe(2);
    } finally {
      await client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("only builds URLs under the provider's configured API base URL", () => {
    expect(buildUpstreamUrl("https://slack.com/api", { path: "/chat.postMessage" }).href).toBe("https://slack.com/api/chat.postMessage");
    expect(buildUpstreamUrl("https://api.github.com", { path: "//evil.example/x" }).origin).toBe("https://api.github.com");
    for (const path of ["https://evil.example/user", "../../other", "/../oauth.v2.access"]) {
      expect(() => buildUpstreamUrl("https://slack.com/api", { path }), path).toThrow(BrokerError);
    }
  });

  it("builds the URL the URL parser would, whichever way it takes", () => {
    // The parser's resolution, as the broker did it for every call before plain paths were joined directly.
    const parsed = (baseUrl: string, path: string, query: Record<string, string> = {}) => {
      const base = new URL(baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
      const url = path === "" ? new URL(baseUrl) : new URL(path.replace(/^\/+/, ""), base);
      if (url.origin !== base.origin || (path !== "" && !url.pathname.startsWith(base.pathname))) return "refused";
      for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
      return `${url.origin} ${url.pathname}${url.search} ${url.href}`;
    };
    const built = (baseUrl: string, path: string, query?: Record<string, string>) => {
      try {
        const target = buildUpstreamUrl(baseUrl, { path, query });
        return `${target.origin} ${target.path} ${target.href}`;
      } catch (error) {
        expect(error).toBeInstanceOf(BrokerError);
        return "refused";
      }
    };
    const paths = [
      "", "/", "user", "/user", "//user", "/repos/o/r/issues/12", "/a//b", "/a/./b", "/a/../b", "/a/%2e%2E/b", "/a/.%2e", "/%2E/x",
      "/a/.../b", "/a/.b/c.", "/files/report.v2.json", "/a%2Fb", "/a%zz", "/x:y", "a:b/c", "/a/b:c", "/a?x=1", "/a#frag", "/a\\b",
      "/a b", "/é", "/a|b", "/a[1]", "/~user/@me/!$&'()*+,;=", "https://evil.example/user", "//evil.example/x", "/../oauth", "..",
    ];
    for (const baseUrl of ["https://api.example.com", "https://api.example.com/", "https://slack.com/api", "http://127.0.0.1:4000/v1/x/", "https://h.example/api?key=1", "https://h.example/api#part", "https://h.example/api/#part", "https://u:p@h.example/api/"]) {
      for (const path of paths) {
        expect(built(baseUrl, path), `${baseUrl} + ${path}`).toBe(parsed(baseUrl, path));
        expect(built(baseUrl, path, { q: "a b&c", page: "2" }), `${baseUrl} + ${path} + query`).toBe(parsed(baseUrl, path, { q: "a b&c", page: "2" }));
      }
    }
  });
});
