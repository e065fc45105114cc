/**
 * Icons for the console and MCP `icons`: plain monograms in each product's colour, as data: URIs
 * so that showing them never reaches a vendor's server (and no vendor's logo file is copied).
 */
function monogram(letters: string, background: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="${background}"/>` +
    `<text x="32" y="42" font-family="Segoe UI,Helvetica,Arial,sans-serif" font-size="${letters.length > 1 ? 24 : 30}" font-weight="700" fill="#fff" text-anchor="middle">${letters}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

export const OUTLOOK_ICON = monogram("O", "#0078D4");
export const ONEDRIVE_ICON = monogram("OD", "#0364B8");
export const TEAMS_ICON = monogram("T", "#5059C9");
export const ZOOM_ICON = monogram("Z", "#0B5CFF");
export const BOX_ICON = monogram("box", "#0061D5");
