/** A minimal stand-in for GitHub's GET /user, for the benchmark only (one process, keep-alive). */
import { createServer } from "node:http";

export const BENCH_ACCESS_TOKEN = "gho_benchAccessToken0123456789abcdef";

const user = JSON.stringify({
  login: "octocat",
  id: 583231,
  node_id: "MDQ6VXNlcjU4MzIzMQ==",
  avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4",
  html_url: "https://github.com/octocat",
  type: "User",
  site_admin: false,
  name: "The Octocat",
  company: "@github",
  blog: "https://github.blog",
  location: "San Francisco",
  email: "octocat@github.com",
  bio: null,
  public_repos: 8,
  followers: 20000,
  following: 9,
  created_at: "2011-01-25T18:44:36Z",
  updated_at: "2026-01-22T14:25:21Z",
});

const server = createServer((request, response) => {
  if (request.url !== "/user" || request.headers.authorization !== `Bearer ${BENCH_ACCESS_TOKEN}`) {
    response.writeHead(request.url === "/user" ? 401 : 404, { "content-type": "application/json" });
    response.end(JSON.stringify({ message: request.url === "/user" ? "Bad credentials" : "Not Found" }));
    return;
  }
  response.writeHead(200, { "content-type": "application/json; charset=utf-8", "x-ratelimit-remaining": "4999" });
  response.end(user);
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === "object" && address ? address.port : 0}\n`);
});
