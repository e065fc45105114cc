import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { providerFromDeclaration } from "../declared-provider.js";
import { messageSummary, rawMessage } from "./gmail-mime.js";
import { identityFromIdToken } from "./google-auth.js";
import { documentText } from "./google-docs-text.js";
import { googleProviders } from "./index.js";

const built = (id: string) => {
  const provider = googleProviders.find((candidate) => candidate.declaration.id === id)!;
  return providerFromDeclaration(provider.declaration, provider.tools, provider.hooks);
};
const toolOf = (id: string, name: string) => built(id).tools.find((tool) => tool.name === name)!;
const decodeRaw = (raw: string) => Buffer.from(raw, "base64url").toString("utf8");
const b64url = (text: string) => Buffer.from(text).toString("base64url");
const jwt = (claims: Record<string, unknown>) => `${b64url('{"alg":"RS256"}')}.${b64url(JSON.stringify(claims))}.c2lnbmF0dXJl`;

describe("Google providers", () => {
  it("has at least 35 tools across Gmail, Calendar, Drive, Sheets and Docs", () => {
    expect(googleProviders.map((provider) => provider.declaration.id)).toEqual(["gmail", "google_calendar", "google_drive", "google_sheets", "google_docs"]);
    expect(googleProviders.flatMap((provider) => provider.tools).length).toBeGreaterThanOrEqual(35);
  });

  it.each(googleProviders.map((provider) => [provider.declaration.id, provider] as const))(
    "%s: every tool has a title, scopes the provider asks for, and examples its arguments schema accepts that build a request",
    (_id, provider) => {
      const ajv = new Ajv({ strict: false });
      const definition = providerFromDeclaration(provider.declaration, provider.tools, provider.hooks);
      const asked = new Set(provider.declaration.auth.type === "oauth2" ? provider.declaration.auth.scopes : []);
      expect(Object.keys(provider.examples ?? {}).sort()).toEqual(provider.tools.map((tool) => tool.name).sort());
      for (const tool of provider.tools) {
        expect(tool.title, tool.name).toBeTruthy();
        expect(tool.scopes?.length, tool.name).toBeGreaterThan(0);
        for (const needed of tool.scopes ?? []) expect(asked.has(needed), `${tool.name} needs ${needed}`).toBe(true);
        expect(tool.description, tool.name).toMatch(/\.$/);
      }
      for (const tool of definition.tools) {
        const example = provider.examples![tool.name]!;
        const validate = ajv.compile(tool.argumentsSchema);
        expect(validate(example), `${tool.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        expect(() => tool.buildRequest(example), tool.name).not.toThrow();
      }
    },
  );

  it("asks Google for a refresh token on every consent, incrementally, and revokes at Google's endpoint", () => {
    for (const provider of googleProviders) {
      const auth = provider.declaration.auth;
      expect(auth).toMatchObject({
        type: "oauth2",
        authorize_url: "https://accounts.google.com/o/oauth2/v2/auth",
        token_url: "https://oauth2.googleapis.com/token",
        revocation_url: "https://oauth2.googleapis.com/revoke",
        authorize_params: { access_type: "offline", prompt: "consent", include_granted_scopes: "true" },
      });
    }
  });

  it("marks sending, sharing, clearing and deleting high risk, and every delete destructive and idempotent", () => {
    const tools = googleProviders.flatMap((provider) => provider.tools);
    const high = tools.filter((tool) => tool.risk === "high").map((tool) => tool.name);
    expect(high).toEqual(
      expect.arrayContaining(["gmail.send_message", "gmail.send_draft", "gmail.trash_message", "google_calendar.delete_event", "google_drive.share_file", "google_drive.delete_file", "google_sheets.clear_values"]),
    );
    for (const tool of tools.filter((candidate) => /\.(delete|trash)_/.test(candidate.name))) {
      expect({ name: tool.name, risk: tool.risk, destructive: tool.destructive, idempotent: tool.idempotent }).toEqual({ name: tool.name, risk: "high", destructive: true, idempotent: true });
    }
    for (const tool of tools.filter((candidate) => candidate.side_effect === "read")) expect(tool.risk, tool.name).toBe("low");
  });
});

describe("Gmail messages", () => {
  it("sends the message as RFC 2822 text in base64url, with the thread id beside it", () => {
    const request = toolOf("gmail", "gmail.send_message").buildRequest({ to: ["Ana <ana@example.com>", "bo@example.com"], cc: ["cy@example.com"], subject: "Hello", body: "Line one\nLine two", thread_id: "t1", in_reply_to: "<m1@example.com>" });
    expect(request).toMatchObject({ method: "POST", path: "/users/me/messages/send" });
    const body = request.body as { raw: string; threadId: string };
    expect(body.threadId).toBe("t1");
    expect(body.raw).toMatch(/^[A-Za-z0-9_-]+$/);
    const text = decodeRaw(body.raw);
    expect(text).toContain("To: Ana <ana@example.com>, bo@example.com\r\n");
    expect(text).toContain("Cc: cy@example.com\r\n");
    expect(text).toContain("Subject: Hello\r\n");
    expect(text).toContain("In-Reply-To: <m1@example.com>\r\nReferences: <m1@example.com>\r\n");
    const [, encodedBody] = text.split("\r\n\r\n");
    expect(Buffer.from(encodedBody!.replace(/\r\n/g, ""), "base64").toString("utf8")).toBe("Line one\nLine two");
  });

  it("writes a draft's message inside `message`", () => {
    const request = toolOf("gmail", "gmail.create_draft").buildRequest({ to: ["ana@example.com"], subject: "Draft", body: "B" });
    const body = request.body as { message: { raw: string } };
    expect(decodeRaw(body.message.raw)).toContain("Subject: Draft\r\n");
  });

  it("encodes a subject beyond ASCII as RFC 2047 words, and an HTML body as multipart/alternative", () => {
    const text = decodeRaw(rawMessage({ to: ["a@example.com"], subject: "Grüße – résumé", body: "plain", html_body: "<p>html</p>" }, "b0undary"));
    const subject = /Subject: (.*(?:\r\n .*)*)\r\n/.exec(text)![1]!;
    const words = subject.split("\r\n ").map((word) => /^=\?UTF-8\?B\?(.+)\?=$/.exec(word)![1]!);
    expect(words.map((word) => Buffer.from(word, "base64").toString("utf8")).join("")).toBe("Grüße – résumé");
    expect(text).toContain('Content-Type: multipart/alternative; boundary="b0undary"');
    expect(text).toContain("--b0undary--");
  });

  it("refuses a line break in an address or the subject: an argument cannot add headers", () => {
    expect(() => rawMessage({ to: ["a@example.com\r\nBcc: spy@example.com"], subject: "S" }, "b")).toThrow(/line breaks/);
    expect(() => rawMessage({ to: ["a@example.com"], subject: "S\nBcc: spy@example.com" }, "b")).toThrow(/line breaks/);
    const schema = toolOf("gmail", "gmail.send_message").argumentsSchema;
    const validate = new Ajv({ strict: false }).compile(schema);
    expect(validate({ to: ["a@example.com\nBcc: x@example.com"], subject: "S", body: "B" })).toBe(false);
  });

  it("reads a fetched message into headers, text and attachments", () => {
    const message = {
      id: "m1",
      threadId: "t1",
      labelIds: ["INBOX"],
      snippet: "Hi",
      payload: {
        mimeType: "multipart/mixed",
        headers: [
          { name: "From", value: "Ana <ana@example.com>" },
          { name: "Subject", value: "Report" },
          { name: "Message-Id", value: "<m1@example.com>" },
        ],
        parts: [
          { mimeType: "multipart/alternative", parts: [{ mimeType: "text/html", body: { data: b64url("<p>Hi &amp; bye</p>") } }, { mimeType: "text/plain", body: { data: b64url("Hi and bye") } }] },
          { mimeType: "application/pdf", filename: "r.pdf", body: { attachmentId: "att1", size: 1234 } },
        ],
      },
    };
    expect(messageSummary(message, 100)).toMatchObject({
      id: "m1",
      thread_id: "t1",
      from: "Ana <ana@example.com>",
      subject: "Report",
      to: null,
      message_id: "<m1@example.com>",
      text: "Hi and bye",
      text_truncated: false,
      attachments: [{ filename: "r.pdf", mime_type: "application/pdf", size: 1234, attachment_id: "att1" }],
    });
    const htmlOnly = { ...message, payload: { mimeType: "text/html", body: { data: b64url("<p>Hi &amp; bye</p><p>again</p>") } } };
    expect(messageSummary(htmlOnly, 100).text).toBe("Hi & bye\nagain");
    expect(messageSummary(message, 2)).toMatchObject({ text: "Hi", text_truncated: true });
  });
});

describe("Google Calendar, Drive, Sheets and Docs requests", () => {
  it("lists events expanded and in start order, and builds an event body from the arguments given", () => {
    expect(toolOf("google_calendar", "google_calendar.list_events").buildRequest({ calendar_id: "team@group.calendar.google.com" })).toMatchObject({
      path: "/calendars/team%40group.calendar.google.com/events",
      query: { singleEvents: "true", orderBy: "startTime" },
    });
    const create = toolOf("google_calendar", "google_calendar.create_event").buildRequest({ calendar_id: "primary", summary: "S", start: { date: "2026-12-01" }, end: { date: "2026-12-02" }, attendees: [{ email: "a@example.com" }] });
    expect(create.body).toEqual({ summary: "S", start: { date: "2026-12-01" }, end: { date: "2026-12-02" }, attendees: [{ email: "a@example.com" }] });
    expect(create.query).toBeUndefined();
  });

  it("names Drive's fields and shared-drive support on every file call", () => {
    const search = toolOf("google_drive", "google_drive.search_files").buildRequest({ q: "name contains 'x'" });
    expect(search.query).toMatchObject({ q: "name contains 'x'", supportsAllDrives: "true", includeItemsFromAllDrives: "true" });
    expect(String(search.query!.fields)).toMatch(/^nextPageToken,incompleteSearch,files\(id,name,mimeType,/);
    const move = toolOf("google_drive", "google_drive.move_file").buildRequest({ file_id: "f", to_folder_id: "new", from_folder_id: "old" });
    expect(move).toMatchObject({ method: "PATCH", path: "/files/f", query: { addParents: "new", removeParents: "old" } });
  });

  it("wraps an export's text and says when it was cut", () => {
    const exportTool = toolOf("google_drive", "google_drive.export_file");
    expect(exportTool.mapResponse({ status: 200, headers: {}, body: "Hello", latencyMs: 1 }, { file_id: "f", mime_type: "text/plain" })).toEqual({ file_id: "f", mime_type: "text/plain", text: "Hello", truncated: false });
  });

  it("puts an A1 range in one path segment, before Sheets' :append and :clear verbs", () => {
    const append = toolOf("google_sheets", "google_sheets.append_values").buildRequest({ spreadsheet_id: "s1", range: "'Q1 sales'!A:B", values: [["a", "1"]] });
    expect(append.path).toBe("/spreadsheets/s1/values/'Q1%20sales'!A%3AB:append");
    expect(append.query).toEqual({ valueInputOption: "USER_ENTERED", insertDataOption: "INSERT_ROWS" });
    expect(toolOf("google_sheets", "google_sheets.clear_values").buildRequest({ spreadsheet_id: "s1", range: "Sheet1" }).path).toBe("/spreadsheets/s1/values/Sheet1:clear");
  });

  it("reads a document's paragraphs and tables as text", () => {
    const document = {
      documentId: "d1",
      title: "Notes",
      revisionId: "r1",
      body: {
        content: [
          { sectionBreak: {} },
          { paragraph: { elements: [{ textRun: { content: "Hello " } }, { textRun: { content: "world\n" } }] } },
          { table: { tableRows: [{ tableCells: [{ content: [{ paragraph: { elements: [{ textRun: { content: "a\n" } }] } }] }, { content: [{ paragraph: { elements: [{ textRun: { content: "b\n" } }] } }] }] }] } },
        ],
      },
    };
    expect(documentText(document)).toEqual({ documentId: "d1", title: "Notes", revisionId: "r1", text: "Hello world\na\tb\n", truncated: false });
  });

  it("inserts at an index or at the end of the body, as two tools", () => {
    expect(toolOf("google_docs", "google_docs.insert_text").buildRequest({ document_id: "d", text: "x", index: 1 }).body).toEqual({ requests: [{ insertText: { text: "x", location: { index: 1 } } }] });
    expect(toolOf("google_docs", "google_docs.append_text").buildRequest({ document_id: "d", text: "x" }).body).toEqual({ requests: [{ insertText: { text: "x", endOfSegmentLocation: {} } }] });
  });
});

describe("Google identity", () => {
  it("names a Sheets or Docs connection from the ID token's subject and email", async () => {
    await expect(identityFromIdToken(undefined, { id_token: jwt({ sub: "1234567890", email: "ana@example.com" }) })).resolves.toEqual({ accountId: "1234567890", displayName: "ana@example.com" });
    await expect(identityFromIdToken(undefined, { id_token: jwt({ sub: "1234567890" }) })).resolves.toEqual({ accountId: "1234567890", displayName: "1234567890" });
  });

  it("refuses a token response without a usable ID token", async () => {
    await expect(identityFromIdToken(undefined, {})).rejects.toThrow(/ID token/);
    await expect(identityFromIdToken(undefined, { id_token: "not-a-jwt" })).rejects.toThrow(/ID token/);
    await expect(identityFromIdToken(undefined, { id_token: jwt({ email: "a@example.com" }) })).rejects.toThrow(/ID token/);
  });
});
