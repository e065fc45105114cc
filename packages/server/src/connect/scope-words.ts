/**
 * The OAuth scopes the built-in providers ask for, in the words an end user reads on the connect
 * page ("read and write your repositories", not `repo`). Keyed by provider, since vendors reuse
 * names (`read`, `api`); a scope not listed here is shown as it is.
 */

/** Scopes of OpenID Connect and of refresh, the same at every vendor that uses them. */
const COMMON: Record<string, string> = {
  openid: "confirm who you are",
  email: "see your email address",
  profile: "see your name and profile picture",
  offline_access: "stay connected until you disconnect, without asking you again",
};

const GOOGLE = "https://www.googleapis.com/auth/";
const google = (words: Record<string, string>) => Object.fromEntries(Object.entries(words).map(([scope, text]) => [`${GOOGLE}${scope}`, text]));

const MICROSOFT: Record<string, string> = {
  "User.Read": "see your profile and sign you in",
  "Mail.Read": "read your email",
  "Mail.Send": "send email as you",
  "Mail.ReadWrite": "read, write, move and delete your email",
  "Calendars.Read": "see your calendars and events",
  "Calendars.ReadWrite": "create, change and delete events in your calendars",
  "Calendars.Read.Shared": "see calendars shared with you",
  "Files.Read.All": "read all files you can open",
  "Files.ReadWrite.All": "read, change and delete all files you can open",
  "Team.ReadBasic.All": "see the names and descriptions of your teams",
  "Channel.ReadBasic.All": "see the names and descriptions of channels",
  "ChannelMessage.Read.All": "read messages in channels",
  "ChannelMessage.Send": "post messages in channels as you",
  "Chat.ReadBasic": "see the names and members of your chats",
  "Chat.Read": "read your chat messages",
  "ChatMessage.Send": "send chat messages as you",
  "TeamMember.Read.All": "see who is in your teams",
};

const ATLASSIAN: Record<string, string> = {
  "read:jira-work": "read Jira projects, issues and comments",
  "write:jira-work": "create and change Jira issues and comments",
  "read:jira-user": "see Jira users' names and email addresses",
  "read:page:confluence": "read Confluence pages",
  "write:page:confluence": "create and change Confluence pages",
  "delete:page:confluence": "delete Confluence pages",
  "read:space:confluence": "see Confluence spaces",
  "write:comment:confluence": "comment on Confluence pages",
  "search:confluence": "search Confluence",
  "read:confluence-user": "see Confluence users' names",
};

export const SCOPE_WORDS: Record<string, Record<string, string>> = {
  scm: { repo: "read and write your repositories, private ones included", "read:user": "see your GitHub profile" },
  chat: {
    "channels:read": "see the public channels in your workspace",
    "chat:write": "post messages",
    "channels:history": "read messages in public channels",
    "users:read": "see the people in your workspace",
    "reactions:write": "add emoji reactions to messages",
  },
  tracker: { read: "read your Linear issues, projects and comments", write: "create and change Linear issues and comments" },
  gmail: google({
    "gmail.readonly": "read your email and its settings",
    "gmail.send": "send email as you",
    "gmail.compose": "write drafts and send email as you",
    "gmail.modify": "read, send, label and delete your email",
    "gmail.labels": "see and change your email labels",
  }),
  google_calendar: google({ "calendar.readonly": "see your calendars and events", "calendar.events": "create, change and delete events in your calendars" }),
  google_drive: google({ "drive.readonly": "see and download all your Google Drive files", drive: "see, change, create and delete all your Google Drive files" }),
  google_sheets: google({ "spreadsheets.readonly": "see your spreadsheets", spreadsheets: "see, change, create and delete your spreadsheets" }),
  google_docs: google({ "documents.readonly": "see your documents", documents: "see, change, create and delete your documents" }),
  microsoft_outlook: MICROSOFT,
  microsoft_onedrive: MICROSOFT,
  microsoft_teams: MICROSOFT,
  zoom: {
    "user:read:user": "see your Zoom profile",
    "meeting:read:list_meetings": "see your meetings",
    "meeting:read:meeting": "see a meeting's details",
    "meeting:write:meeting": "schedule meetings",
    "meeting:update:meeting": "change your meetings",
    "meeting:delete:meeting": "delete your meetings",
    "cloud_recording:read:list_user_recordings": "see your cloud recordings",
    "cloud_recording:read:list_recording_files": "see and download your recording files",
  },
  box: { root_readonly: "read all files and folders in your Box", root_readwrite: "read, change and delete all files and folders in your Box" },
  jira: ATLASSIAN,
  confluence: ATLASSIAN,
  asana: { default: "see and change everything you can in Asana" },
  gitlab: { api: "read and write everything you can in GitLab, repositories included", read_user: "see your GitLab profile" },
  salesforce: { api: "read and change your Salesforce data", refresh_token: "stay connected until you disconnect, without asking you again" },
  hubspot: {
    oauth: "confirm your HubSpot account",
    "crm.objects.contacts.read": "see your contacts",
    "crm.objects.contacts.write": "create and change contacts",
    "crm.objects.companies.read": "see your companies",
    "crm.objects.companies.write": "create and change companies",
    "crm.objects.deals.read": "see your deals",
    "crm.objects.deals.write": "create and change deals",
  },
  stripe: { read_write: "see and change your Stripe account's data, payments included" },
  dropbox: {
    "account_info.read": "see your Dropbox account's name and email",
    "files.metadata.read": "see the names and details of your files and folders",
    "files.content.write": "add, change and delete your files",
    "sharing.write": "share your files and folders",
  },
  airtable: {
    "user.email:read": "see your email address",
    "schema.bases:read": "see the structure of your bases",
    "data.records:read": "read the records in your bases",
    "data.records:write": "create, change and delete records",
  },
};

/** Each scope, with its plain words when the provider's are known (`words` undefined: shown as it is). */
export function scopesInWords(providerId: string, scopes: readonly string[]): { scope: string; words: string | undefined }[] {
  const table = SCOPE_WORDS[providerId] ?? {};
  return scopes.map((scope) => ({ scope, words: Object.hasOwn(table, scope) ? table[scope] : Object.hasOwn(COMMON, scope) ? COMMON[scope] : undefined }));
}
