/**
 * The Microsoft Graph, Zoom and Box providers: examples that their own schemas accept, the
 * requests those examples build (the vendors' quirks the hooks encode), results of the calls that
 * answer without a body, and the rules of risk and scopes a careful operator expects.
 */
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../catalogue.js";
import { microsoftProviders } from "./index.js";

const ajv = new Ajv({ allErrors: true, strict: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);

const definition = (id: string) => PROVIDERS.find((provider) => provider.id === id)!;
const tool = (name: string) => definition(name.split(".")[0]!).tools.find((candidate) => candidate.name === name)!;
const built = (name: string, args?: Record<string, unknown>) => {
  const provider = microsoftProviders.find((builtIn) => name.startsWith(`${builtIn.declaration.id}.`))!;
  return tool(name).buildRequest(args ?? provider.examples![name]!);
};
const mapped = (name: string, body: unknown, args: Record<string, unknown> = {}) => tool(name).mapResponse({ status: 200, headers: {}, body, latencyMs: 1 }, args);

describe.each(microsoftProviders.map((builtIn) => [builtIn.declaration.id, builtIn] as const))("the %s provider", (id, builtIn) => {
  it("has an example for every tool, which the tool's arguments schema accepts and which builds a request", () => {
    expect(Object.keys(builtIn.examples ?? {}).sort()).toEqual(builtIn.tools.map((t) => t.name).sort());
    for (const declared of builtIn.tools) {
      const example = builtIn.examples![declared.name]!;
      const validate = ajv.compile(declared.arguments_schema);
      expect(validate(example), `${declared.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(() => tool(declared.name).buildRequest(example), declared.name).not.toThrow();
    }
  });

  it("asks at connect for every scope a tool needs, and each tool names its scopes", () => {
    const auth = builtIn.declaration.auth;
    if (auth.type !== "oauth2") throw new Error(`${id} is not OAuth`);
    for (const declared of builtIn.tools) {
      expect(declared.scopes?.length, declared.name).toBeGreaterThan(0);
      for (const scope of declared.scopes!) expect(auth.scopes, `${declared.name} needs ${scope}`).toContain(scope);
    }
  });

  it("marks deletes destructive, idempotent and high risk, reads low risk, and gives every tool a title", () => {
    for (const declared of builtIn.tools) {
      expect(declared.title, declared.name).toBeTruthy();
      if (declared.request.method === "DELETE") expect([declared.destructive, declared.idempotent, declared.risk], declared.name).toEqual([true, true, "high"]);
      if (declared.destructive) expect(declared.risk, declared.name).toBe("high");
      if (declared.side_effect === "read") expect([declared.risk, declared.destructive], declared.name).toEqual(["low", undefined]);
    }
  });
});

describe("Outlook's requests", () => {
  it("sends mail as Graph's sendMail action with recipient objects, a text body by default, and a copy in Sent Items", () => {
    expect(built("microsoft_outlook.send_mail", { to: ["a@contoso.com"], bcc: ["b@contoso.com"], subject: "Hi", body: "Text" })).toEqual({
      method: "POST",
      path: "/me/microsoft.graph.sendMail",
      body: {
        Message: {
          subject: "Hi",
          body: { contentType: "text", content: "Text" },
          toRecipients: [{ emailAddress: { address: "a@contoso.com" } }],
          bccRecipients: [{ emailAddress: { address: "b@contoso.com" } }],
        },
        SaveToSentItems: true,
      },
    });
  });

  it("answers the body-less sends and deletes from the arguments", () => {
    expect(mapped("microsoft_outlook.send_mail", null, { to: ["a@contoso.com"], subject: "Hi" })).toEqual({ sent: true, to: ["a@contoso.com"], subject: "Hi" });
    expect(mapped("microsoft_outlook.delete_message", null, { message_id: "m1" })).toEqual({ deleted: true, message_id: "m1" });
    expect(mapped("microsoft_outlook.decline_event", null, { event_id: "e1", send_response: false })).toEqual({ response: "declined", event_id: "e1", organizer_told: false });
  });

  it("quotes a KQL search for $search and selects a small set of fields", () => {
    const request = built("microsoft_outlook.search_messages", { query: "from:ana subject:invoice", top: 5 });
    expect(request.query).toMatchObject({ $search: '"from:ana subject:invoice"', $top: "5" });
    expect(request.query!.$select).toContain("bodyPreview");
    expect(built("microsoft_outlook.get_message", { message_id: "AA=" }).headers).toEqual({ Prefer: 'outlook.body-content-type="text"' });
  });

  it("writes event times with their zone (UTC when none) and leaves out what a PATCH was not given", () => {
    expect(built("microsoft_outlook.create_event", { subject: "S", start: "2026-03-02T09:30:00", end: "2026-03-02T10:00:00", attendees: ["a@contoso.com"] }).body).toEqual({
      subject: "S",
      start: { dateTime: "2026-03-02T09:30:00", timeZone: "UTC" },
      end: { dateTime: "2026-03-02T10:00:00", timeZone: "UTC" },
      attendees: [{ emailAddress: { address: "a@contoso.com" }, type: "required" }],
    });
    expect(built("microsoft_outlook.update_event", { event_id: "e1", time_zone: "Europe/Paris", subject: "New" }).body).toEqual({ subject: "New" });
    const list = built("microsoft_outlook.list_events", { start: "2026-03-02T00:00:00Z", end: "2026-03-03T00:00:00Z", time_zone: "Europe/Paris" });
    expect(list.headers).toEqual({ Prefer: 'outlook.timezone="Europe/Paris"' });
  });

  it("sorts calendarView's occurrences by start and flattens them", () => {
    const events = mapped("microsoft_outlook.list_events", {
      value: [
        { id: "2", subject: "Later", start: { dateTime: "2026-03-02T11:00:00.0000000", timeZone: "UTC" }, organizer: { emailAddress: { address: "o@contoso.com" } } },
        { id: "1", subject: "Sooner", start: { dateTime: "2026-03-02T09:00:00.0000000", timeZone: "UTC" } },
      ],
    }) as { events: { id: string; organizer?: string }[] };
    expect(events.events.map((event) => event.id)).toEqual(["1", "2"]);
    expect(events.events[1]!.organizer).toBe("o@contoso.com");
  });
});

describe("OneDrive, Teams, Zoom and Box requests", () => {
  it("writes a OneDrive search as an OData string literal, a quote doubled, inside one path segment", () => {
    expect(built("microsoft_onedrive.search", { drive_id: "b!x", q: "O'Brien/2026", top: 5 }).path).toBe("/drives/b!x/microsoft.graph.search(q='O''Brien%2F2026')");
  });

  it("moves a OneDrive item only when a parent is given, and shares with recipient objects", () => {
    expect(built("microsoft_onedrive.update_item", { drive_id: "d", item_id: "i", name: "n" }).body).toEqual({ name: "n" });
    expect(built("microsoft_onedrive.invite", { drive_id: "d", item_id: "i", emails: ["a@contoso.com"], role: "write" }).body).toEqual({
      recipients: [{ email: "a@contoso.com" }],
      roles: ["write"],
      requireSignIn: true,
    });
  });

  it("posts Teams messages as text unless html is asked for", () => {
    expect(built("microsoft_teams.send_chat_message", { chat_id: "19:a@thread.v2", content: "Hi" }).body).toEqual({ body: { contentType: "text", content: "Hi" } });
    expect(built("microsoft_teams.send_channel_message", { team_id: "t", channel_id: "c", content: "<b>Hi</b>", content_type: "html" }).body).toEqual({ body: { contentType: "html", content: "<b>Hi</b>" } });
  });

  it("schedules Zoom meetings as type 2 for the connected user, and keeps credentials out of results", () => {
    expect(built("zoom.create_meeting", { topic: "T", start_time: "2026-03-02T09:30:00Z", duration: 30 })).toEqual({
      method: "POST",
      path: "/users/me/meetings",
      body: { topic: "T", start_time: "2026-03-02T09:30:00Z", duration: 30, type: 2 },
    });
    const meeting = mapped("zoom.get_meeting", { id: 1, topic: "T", start_url: "https://zoom.us/s/1?zak=secret", join_url: "https://zoom.us/j/1" });
    expect(meeting).toEqual({ id: 1, topic: "T", join_url: "https://zoom.us/j/1" });
    const recordings = mapped("zoom.get_meeting_recordings", { id: 1, download_access_token: "secret", recording_files: [{ id: "f", download_url: "https://zoom.us/rec/download/f", play_url: "https://zoom.us/rec/play/f" }] });
    expect(JSON.stringify(recordings)).not.toContain("secret");
    expect(JSON.stringify(recordings)).not.toContain("download");
  });

  it("authenticates to Zoom's token endpoint with HTTP Basic, to Microsoft's and Box's in the form", () => {
    expect(["zoom", "microsoft_outlook", "box"].map((id) => definition(id).oauth!.clientAuth)).toEqual(["client_secret_basic", "client_secret_post", "client_secret_post"]);
  });

  it("revokes a Zoom token with the client in a Basic header", () => {
    const revocation = definition("zoom").oauth!.revocation!({ token: "tok", clientId: "c", clientSecret: "s", revokeUrl: "https://zoom.us/oauth/revoke", apiBaseUrl: "https://api.zoom.us/v2" });
    expect(revocation).toEqual({ url: "https://zoom.us/oauth/revoke", request: { method: "POST", path: "", query: { token: "tok" }, headers: { authorization: `Basic ${Buffer.from("c:s").toString("base64")}` } } });
  });

  it("gives Box lists comma-separated, and shares a file through PUT /files/{id} with fields=shared_link", () => {
    expect(built("box.search", { query: "q", file_extensions: ["pdf", "docx"], ancestor_folder_ids: ["1", "2"] }).query).toMatchObject({ file_extensions: "pdf,docx", ancestor_folder_ids: "1,2" });
    expect(built("box.create_shared_link", { file_id: "1", access: "open" })).toEqual({ method: "PUT", path: "/files/1", query: { fields: "shared_link" }, body: { shared_link: { access: "open" } } });
    expect(built("box.update_file", { file_id: "1", name: "n" }).body).toEqual({ name: "n" });
  });
});
