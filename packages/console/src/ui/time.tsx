/** A timestamp as a <time> element: local date and time, with the distance from now. */
const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1000],
];

export function fromNow(iso: string, now = Date.now()): string {
  const delta = new Date(iso).getTime() - now;
  for (const [unit, size] of UNITS) {
    if (Math.abs(delta) >= size || unit === "second") return relative.format(Math.round(delta / size), unit);
  }
  return "";
}

export function formatTime(iso: string): string {
  return absolute.format(new Date(iso));
}

export function Time({ value, showRelative = false }: { value: string | null | undefined; showRelative?: boolean }) {
  if (!value) return <span className="muted">never</span>;
  return (
    <time dateTime={value} title={value}>
      {formatTime(value)}
      {showRelative ? <span className="muted"> ({fromNow(value)})</span> : null}
    </time>
  );
}
