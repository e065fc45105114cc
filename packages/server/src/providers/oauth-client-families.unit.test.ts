import { describe, expect, it } from "vitest";
import { createProviderCatalogue } from "./catalogue.js";
import { BUILT_IN_PROVIDERS } from "./built-in.js";

const GOOGLE = { clientId: "google-family-id", clientSecret: "google-family-secret" };
const catalogueWith = (providers: Record<string, Record<string, string>>) => createProviderCatalogue({ providers });

describe("one OAuth client for a vendor family", () => {
  it("names the Google, Microsoft Graph and Atlassian (Jira, Confluence) providers as families, and no other", () => {
    const families = Object.fromEntries(BUILT_IN_PROVIDERS.filter((p) => p.oauthClientFamily).map((p) => [p.declaration.id, p.oauthClientFamily]));
    expect(families).toMatchObject({ gmail: "google", google_calendar: "google", microsoft_outlook: "microsoft", microsoft_teams: "microsoft", jira: "atlassian", confluence: "atlassian" });
    for (const id of ["zoom", "box", "asana", "trello", "gitlab", "scm", "chat", "tracker"]) expect(families[id]).toBeUndefined();
  });

  it("serves every Google provider with BROKER_PROVIDER_GOOGLE_* unless the provider's own pair is set", () => {
    const catalogue = catalogueWith({ google: GOOGLE, google_drive: { clientId: "drive-id", clientSecret: "drive-secret" }, google_docs: { clientId: "docs-id-only" } });
    expect(catalogue.get("gmail").client).toEqual(GOOGLE);
    expect(catalogue.get("google_calendar").missing).toEqual([]);
    expect(catalogue.get("google_drive").client).toEqual({ clientId: "drive-id", clientSecret: "drive-secret" });
    // Never mixed: a lone own id leaves the family's pair in charge.
    expect(catalogue.get("google_docs").client).toEqual(GOOGLE);
    expect(catalogue.get("microsoft_outlook").client).toBeUndefined();
  });

  it("asks for the family's variables while nothing is set, and falls back to the family's URLs, never its API base", () => {
    const bare = catalogueWith({});
    expect(bare.get("microsoft_onedrive").missing).toEqual(["BROKER_PROVIDER_MICROSOFT_CLIENT_ID", "BROKER_PROVIDER_MICROSOFT_CLIENT_SECRET"]);
    expect(bare.get("zoom").missing).toEqual(["BROKER_PROVIDER_ZOOM_CLIENT_ID", "BROKER_PROVIDER_ZOOM_CLIENT_SECRET"]);
    const pinned = catalogueWith({
      microsoft: { clientId: "m", clientSecret: "s", authorizeUrl: "https://login.microsoftonline.com/contoso/oauth2/v2.0/authorize", tokenUrl: "https://login.microsoftonline.com/contoso/oauth2/v2.0/token", apiBaseUrl: "https://elsewhere.example" },
      microsoft_teams: { tokenUrl: "http://127.0.0.1:9/token" },
    });
    expect(pinned.get("microsoft_outlook").oauth!.tokenUrl).toBe("https://login.microsoftonline.com/contoso/oauth2/v2.0/token");
    expect(pinned.get("microsoft_outlook").apiBaseUrl).toBe("https://graph.microsoft.com/v1.0");
    expect(pinned.get("microsoft_teams").oauth!.tokenUrl).toBe("http://127.0.0.1:9/token");
    expect(pinned.get("microsoft_teams").oauth!.authorizeUrl).toBe("https://login.microsoftonline.com/contoso/oauth2/v2.0/authorize");
    expect(pinned.get("zoom").client).toBeUndefined();
  });
});
