/** A failed API call, carrying the broker's error envelope (or a description of what went wrong on the way). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** One field fault from a 422/400's `error.details.fields`. */
export type FieldFault = { field: string; message: string };

export function fieldFaults(error: unknown): FieldFault[] {
  if (!(error instanceof ApiError)) return [];
  const fields = error.details?.["fields"];
  if (!Array.isArray(fields)) return [];
  return fields.flatMap((entry: unknown) => {
    if (typeof entry !== "object" || entry === null) return [];
    const { field, message } = entry as Record<string, unknown>;
    return [{ field: typeof field === "string" ? field : "", message: typeof message === "string" ? message : String(message) }];
  });
}

/** What to tell the operator about any error. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return "Something went wrong.";
}
