/** The small path language of `toolbroker api -q`: `.a.b`, `.list[0].id`, `.["odd key"]`; `.` is the whole value. */
export function valueAt(value: unknown, path: string): { found: boolean; value?: unknown } {
  if (!path.startsWith(".")) return { found: false };
  const steps = [...path.slice(1).matchAll(/\[(\d+)\]|\["([^"]*)"\]|\.?([^.[\]]+)/g)].map((match) => (match[1] !== undefined ? Number(match[1]) : (match[2] ?? match[3]!)));
  let current: unknown = value;
  for (const step of steps) {
    if (current === null || typeof current !== "object" || !Object.prototype.hasOwnProperty.call(current, step)) return { found: false };
    current = (current as Record<string | number, unknown>)[step];
  }
  return { found: true, value: current };
}
