/** Google Drive's quirks that need code; everything else about it is data (google-drive.ts). */
import type { ProviderHooks } from "../provider-types.js";

/** Characters of exported text a result carries: a long document, bounded for a model's context. */
export const EXPORT_TEXT_LIMIT = 200_000;

export const googleDriveHooks: ProviderHooks = {
  tools: {
    // An export answers the file's bytes in the format asked, not JSON: the result wraps the text.
    "google_drive.export_file": {
      mapResponse: ({ body }, args) => {
        const text = typeof body === "string" ? body : body === null ? "" : JSON.stringify(body);
        return { file_id: args.file_id, mime_type: args.mime_type, text: text.slice(0, EXPORT_TEXT_LIMIT), truncated: text.length > EXPORT_TEXT_LIMIT };
      },
    },
    // Drive answers deletes with 204 and no body: the result says what was deleted.
    "google_drive.delete_file": { mapResponse: (_response, args) => ({ deleted: true, file_id: args.file_id }) },
    "google_drive.unshare_file": { mapResponse: (_response, args) => ({ deleted: true, file_id: args.file_id, permission_id: args.permission_id }) },
  },
};
