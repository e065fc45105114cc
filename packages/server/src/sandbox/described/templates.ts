/** Fills the `{origin}`, `{message}`, `{user.<field>}` and `{grant.scope}` placeholders of vendor data (see vendor-config.ts). */
export type TemplateValues = Record<string, unknown>;

export function fillTemplates(value: unknown, values: TemplateValues): unknown {
  if (typeof value === "string") {
    const whole = /^\{([a-z_.]+)\}$/i.exec(value);
    if (whole && whole[1]! in values) return values[whole[1]!];
    return value.replace(/\{([a-z_.]+)\}/gi, (match, name: string) => (name in values ? String(values[name]) : match));
  }
  if (Array.isArray(value)) return value.map((item) => fillTemplates(item, values));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillTemplates(item, values)]));
  return value;
}

export function userValues(user: Record<string, string>): TemplateValues {
  return Object.fromEntries(Object.entries(user).map(([name, value]) => [`user.${name}`, value]));
}
