/**
 * `google_calendar`: Google Calendar API v3. Events are read expanded into single instances
 * (recurring events as their occurrences) in start order, which is what "what is on my calendar"
 * means; the free-text `q` searches summary, description, location and attendees.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import type { ProviderHooks } from "../provider-types.js";
import { googleDescription, googleIcon, googleOAuth, sameNames, scope } from "./google-auth.js";

const READONLY = scope("calendar.readonly");
const EVENTS = scope("calendar.events");

const GRID = '<rect x="11" y="13" width="26" height="24" rx="3" fill="#fff"/><path d="M11 19h26" stroke="#1a73e8" stroke-width="3"/><text x="24" y="33" font-family="Arial" font-size="12" font-weight="bold" fill="#1a73e8" text-anchor="middle">31</text>';

export const googleCalendarDeclaration: ProviderDeclaration = {
  id: "google_calendar",
  display_name: "Google Calendar",
  description: "Read calendars and events, find free time, and create, change or delete events.",
  icon: googleIcon("#1a73e8", GRID),
  docs_url: "https://developers.google.com/calendar/api/v3/reference",
  api_base_url: "https://www.googleapis.com/calendar/v3",
  auth: googleOAuth([READONLY, EVENTS]),
  // The primary calendar's id is the account's address.
  identity: { path: "/calendars/primary", account_id: "/id", display_name: "/id" },
};

const calendarId = { type: "string", minLength: 1, maxLength: 500, description: 'Calendar id: "primary" for the user\'s own calendar, or an id from google_calendar.list_calendars' };
const eventId = { type: "string", minLength: 1, maxLength: 1024, pattern: "^[A-Za-z0-9_]+$", description: "Event id (from google_calendar.list_events)" };
const RFC3339 = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:\\d{2})$";
const timestamp = (what: string) => ({ type: "string", pattern: RFC3339, description: `${what}, RFC 3339 with an offset, e.g. 2026-12-01T09:00:00Z` });
const timeZone = { type: "string", maxLength: 100, pattern: "^[A-Za-z_+-]+(/[A-Za-z0-9_+-]+)*$", description: "IANA time zone, e.g. Europe/Zurich" };
const when = (what: string) => ({
  type: "object",
  description: `${what}: dateTime for a timed event, or date alone for an all-day one`,
  properties: {
    dateTime: timestamp("Date and time"),
    date: { type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "Date of an all-day event, YYYY-MM-DD (the end date is exclusive)" },
    timeZone: { ...timeZone, description: "IANA time zone of dateTime (needed for recurring events)" },
  },
  additionalProperties: false,
});
const sendUpdates = { type: "string", enum: ["all", "externalOnly", "none"], description: "Who Google emails about the change: all guests, only guests outside the organisation, or none (the default)" };
const eventProperties = {
  calendar_id: calendarId,
  summary: { type: "string", maxLength: 1024, description: "Title" },
  description: { type: "string", maxLength: 8192, description: "Description (may hold HTML)" },
  location: { type: "string", maxLength: 1024, description: "Place, as free text" },
  start: when("Start"),
  end: when("End (exclusive)"),
  attendees: {
    type: "array",
    maxItems: 100,
    description: "Guests",
    items: {
      type: "object",
      description: "One guest",
      properties: { email: { type: "string", minLength: 3, maxLength: 320, description: "Guest's email address" }, optional: { type: "boolean", description: "Whether the guest is optional" } },
      required: ["email"],
      additionalProperties: false,
    },
  },
  recurrence: { type: "array", maxItems: 10, items: { type: "string", maxLength: 500, pattern: "^(RRULE|EXRULE|RDATE|EXDATE)", description: "An RFC 5545 line" }, description: 'Recurrence lines, e.g. ["RRULE:FREQ=WEEKLY;BYDAY=MO"]' },
  send_updates: sendUpdates,
};
const eventBody = { summary: "{summary}", description: "{description}", location: "{location}", start: "{start}", end: "{end}", attendees: "{attendees}", recurrence: "{recurrence}" };
const EVENT_FIELDS = sameNames(["id", "status", "summary", "description", "location", "start", "end", "attendees", "organizer", "recurrence", "recurringEventId", "htmlLink", "hangoutLink"]);
const eventShape = { type: "object", properties: { id: { type: "string" } } };

export const googleCalendarTools: ToolDeclaration[] = [
  {
    name: "google_calendar.list_calendars",
    title: "List calendars",
    description: "List the calendars on the user's calendar list (their own, shared with them, subscribed), with each one's id and the user's access role.",
    arguments_schema: {
      type: "object",
      properties: {
        min_access_role: { type: "string", enum: ["freeBusyReader", "reader", "writer", "owner"], description: "Only calendars the user has at least this role on" },
        max_results: { type: "integer", minimum: 1, maximum: 250, description: "Results per page (at most 250)" },
        page_token: { type: "string", maxLength: 500, description: "next_page_token of the previous page" },
      },
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "GET", path: "/users/me/calendarList", query: { minAccessRole: "{min_access_role}", maxResults: "{max_results}", pageToken: "{page_token}" } },
    response: { schema: { type: "object", properties: { items: { type: "array" } } }, fields: { calendars: "/items", next_page_token: "/nextPageToken" } },
  },
  {
    name: "google_calendar.list_events",
    title: "List calendar events",
    description:
      "List events of a calendar between two times, recurring events expanded into their occurrences, in start order. " +
      "q searches titles, descriptions, locations and guests.",
    arguments_schema: {
      type: "object",
      properties: {
        calendar_id: calendarId,
        time_min: timestamp("Only events ending after this time"),
        time_max: timestamp("Only events starting before this time"),
        q: { type: "string", maxLength: 500, description: "Free-text search" },
        time_zone: { ...timeZone, description: "Time zone of the answer's times (default: the calendar's)" },
        max_results: { type: "integer", minimum: 1, maximum: 2500, description: "Events per page (Google's default 250)" },
        page_token: { type: "string", maxLength: 500, description: "next_page_token of the previous page" },
      },
      required: ["calendar_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    // Google orders by start time only when recurring events are expanded into single ones.
    request: {
      method: "GET",
      path: "/calendars/{calendar_id}/events",
      query: { timeMin: "{time_min}", timeMax: "{time_max}", q: "{q}", timeZone: "{time_zone}", maxResults: "{max_results}", pageToken: "{page_token}", singleEvents: "true", orderBy: "startTime" },
    },
    response: { schema: { type: "object", properties: { items: { type: "array", items: eventShape } } }, fields: { events: "/items", time_zone: "/timeZone", next_page_token: "/nextPageToken" } },
  },
  {
    name: "google_calendar.get_event",
    title: "Get a calendar event",
    description: "Get one event: title, times, place, guests and their answers, organiser, recurrence and links.",
    arguments_schema: { type: "object", properties: { calendar_id: calendarId, event_id: eventId, time_zone: timeZone }, required: ["calendar_id", "event_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "GET", path: "/calendars/{calendar_id}/events/{event_id}", query: { timeZone: "{time_zone}" } },
    response: { schema: eventShape, fields: EVENT_FIELDS },
  },
  {
    name: "google_calendar.create_event",
    title: "Create a calendar event",
    description: "Create an event. Guests are emailed an invitation only when send_updates says so (none by default); an invitation sent cannot be unsent.",
    arguments_schema: { type: "object", properties: eventProperties, required: ["calendar_id", "start", "end"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: [EVENTS],
    request: { method: "POST", path: "/calendars/{calendar_id}/events", query: { sendUpdates: "{send_updates}" }, body: eventBody },
    response: { schema: eventShape, fields: EVENT_FIELDS },
  },
  {
    name: "google_calendar.update_event",
    title: "Update a calendar event",
    description: "Change the fields given of an event (the others stay). attendees, when given, replaces the whole guest list. Guests are emailed only when send_updates says so.",
    arguments_schema: { type: "object", properties: { ...eventProperties, event_id: eventId }, required: ["calendar_id", "event_id"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: [EVENTS],
    request: { method: "PATCH", path: "/calendars/{calendar_id}/events/{event_id}", query: { sendUpdates: "{send_updates}" }, body: eventBody },
    response: { schema: eventShape, fields: EVENT_FIELDS },
  },
  {
    name: "google_calendar.delete_event",
    title: "Delete a calendar event",
    description: "Delete an event (for a recurring event's id, every occurrence). Guests are told only when send_updates says so. It cannot be restored through the API.",
    arguments_schema: { type: "object", properties: { calendar_id: calendarId, event_id: eventId, send_updates: sendUpdates }, required: ["calendar_id", "event_id"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: [EVENTS],
    request: { method: "DELETE", path: "/calendars/{calendar_id}/events/{event_id}", query: { sendUpdates: "{send_updates}" } },
  },
  {
    name: "google_calendar.quick_add_event",
    title: "Quick-add a calendar event",
    description: 'Create an event from a sentence, as Google Calendar\'s quick add reads it ("Lunch with Ana at Noma tomorrow 12:30-14:00"). No guest is invited.',
    arguments_schema: {
      type: "object",
      properties: { calendar_id: calendarId, text: { type: "string", minLength: 1, maxLength: 1000, description: "The event in words: what, when, where" } },
      required: ["calendar_id", "text"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    scopes: [EVENTS],
    request: { method: "POST", path: "/calendars/{calendar_id}/events/quickAdd", query: { text: "{text}" } },
    response: { schema: eventShape, fields: EVENT_FIELDS },
  },
  {
    name: "google_calendar.query_free_busy",
    title: "Find busy times",
    description: "Get the busy periods of one or more calendars (people's addresses work for colleagues who share free/busy) between two times, to find a free slot.",
    arguments_schema: {
      type: "object",
      properties: {
        time_min: timestamp("Start of the period"),
        time_max: timestamp("End of the period"),
        time_zone: { ...timeZone, description: "Time zone of the answer (default UTC)" },
        calendars: {
          type: "array",
          minItems: 1,
          maxItems: 50,
          description: "Calendars to look at",
          items: { type: "object", description: "One calendar", properties: { id: calendarId }, required: ["id"], additionalProperties: false },
        },
      },
      required: ["time_min", "time_max", "calendars"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "POST", path: "/freeBusy", body: { timeMin: "{time_min}", timeMax: "{time_max}", timeZone: "{time_zone}", items: "{calendars}" } },
    response: { schema: { type: "object", properties: { calendars: { type: "object" } } }, fields: { time_min: "/timeMin", time_max: "/timeMax", calendars: "/calendars" } },
  },
];

// Google answers a delete with 204 and no body: the result says what was deleted.
const googleCalendarHooks: ProviderHooks = {
  tools: { "google_calendar.delete_event": { mapResponse: (_response, args) => ({ deleted: true, calendar_id: args.calendar_id, event_id: args.event_id }) } },
};

const EXAMPLE_EVENT_ID = "7kq3n2o1p0abcdefghij";

export const googleCalendar: BuiltInProvider = {
  declaration: googleCalendarDeclaration,
  tools: googleCalendarTools,
  hooks: googleCalendarHooks,
  vendorDescription: googleDescription("calendar"),
  examples: {
    "google_calendar.list_calendars": { min_access_role: "reader" },
    "google_calendar.list_events": { calendar_id: "primary", time_min: "2026-12-01T00:00:00Z", time_max: "2026-12-08T00:00:00Z", q: "standup", max_results: 20 },
    "google_calendar.get_event": { calendar_id: "primary", event_id: EXAMPLE_EVENT_ID },
    "google_calendar.create_event": {
      calendar_id: "primary",
      summary: "Design review",
      location: "Room 4",
      start: { dateTime: "2026-12-02T14:00:00+01:00", timeZone: "Europe/Zurich" },
      end: { dateTime: "2026-12-02T15:00:00+01:00", timeZone: "Europe/Zurich" },
      attendees: [{ email: "alice@example.com" }, { email: "bob@example.com", optional: true }],
      send_updates: "none",
    },
    "google_calendar.update_event": { calendar_id: "primary", event_id: EXAMPLE_EVENT_ID, summary: "Design review (moved)", start: { dateTime: "2026-12-03T14:00:00Z" }, end: { dateTime: "2026-12-03T15:00:00Z" } },
    "google_calendar.delete_event": { calendar_id: "primary", event_id: EXAMPLE_EVENT_ID, send_updates: "all" },
    "google_calendar.quick_add_event": { calendar_id: "primary", text: "Lunch with Ana tomorrow 12:30-14:00" },
    "google_calendar.query_free_busy": { time_min: "2026-12-01T08:00:00Z", time_max: "2026-12-01T18:00:00Z", calendars: [{ id: "primary" }, { id: "alice@example.com" }] },
  },
};
