/**
 * Provider icons as data: URIs, so the console and MCP clients show them without fetching
 * anything from the vendor (and no test or demo reaches the network for a logo).
 */
export function badgeIcon(letters: string, background: string, foreground = "#ffffff"): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="${background}"/>` +
    `<text x="16" y="21.5" font-family="Helvetica,Arial,sans-serif" font-size="${letters.length > 1 ? 13 : 17}" font-weight="700" fill="${foreground}" text-anchor="middle">${letters}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}
