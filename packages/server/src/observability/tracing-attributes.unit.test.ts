import { describe, expect, it } from "vitest";
import { upstreamUrlAttributes } from "./tracing-attributes.js";

describe("the upstream request span's URL", () => {
  it("is the base URL and the declared path template: no filled-in path, no query, no user info", () => {
    expect(upstreamUrlAttributes("GET", "https://user:secret@api.example.com/v3/", "/repos/{owner}/{repo}", 0)).toEqual({
      "http.request.method": "GET",
      "server.address": "api.example.com",
      "server.port": 443,
      "url.full": "https://api.example.com/v3/repos/{owner}/{repo}",
      "url.template": "/v3/repos/{owner}/{repo}",
    });
  });

  it("names the port a base URL gives, and counts a resend after a refresh", () => {
    expect(upstreamUrlAttributes("POST", "http://127.0.0.1:8443", "issues", 1)).toMatchObject({ "server.port": 8443, "url.full": "http://127.0.0.1:8443/issues", "http.request.resend_count": 1 });
  });

  it("is the base URL alone for a tool without a declared path", () => {
    expect(upstreamUrlAttributes("DELETE", "http://api.example.com/x?key=secret", undefined, 0)).toEqual({
      "http.request.method": "DELETE",
      "server.address": "api.example.com",
      "server.port": 80,
      "url.full": "http://api.example.com/x",
    });
  });
});
