/**
 * `google_sheets`: Google Sheets API v4. Ranges are A1 notation ("Sheet1!A1:D20"), one path
 * segment each; values are written as a person would type them (USER_ENTERED: "=SUM(A1:A3)" is a
 * formula, "3.5" a number, "2026-12-01" a date).
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { googleDescription, googleIcon, googleOAuth, identityFromIdToken, OPENID_SCOPES, sameNames, scope } from "./google-auth.js";

const READONLY = scope("spreadsheets.readonly");
const SHEETS = scope("spreadsheets");

const TABLE = '<rect x="13" y="10" width="22" height="28" rx="2" fill="#fff"/><path d="M17 20h14M17 26h14M17 32h14M24 17v18" stroke="#0f9d58" stroke-width="2.5"/>';

export const googleSheetsDeclaration: ProviderDeclaration = {
  id: "google_sheets",
  display_name: "Google Sheets",
  description: "Read and write spreadsheet cells, append rows, clear ranges, create spreadsheets and add sheets.",
  icon: googleIcon("#0f9d58", TABLE),
  docs_url: "https://developers.google.com/sheets/api/reference/rest",
  api_base_url: "https://sheets.googleapis.com/v4",
  // Sheets has no call that names the user: the ID token of `openid email` does (identityFromIdToken).
  auth: googleOAuth([READONLY, SHEETS, ...OPENID_SCOPES]),
};

const spreadsheetId = { type: "string", minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9_-]+$", description: "Spreadsheet id: the long id in its URL (docs.google.com/spreadsheets/d/<id>/edit)" };
const range = (what: string) => ({ type: "string", minLength: 1, maxLength: 500, description: `${what}, in A1 notation: "Sheet1!A1:D20", "Sheet1!A:A", or a sheet's name alone for all of it (quote names with spaces: "'Q1 sales'!A1:C9")` });
const values = {
  type: "array",
  maxItems: 10_000,
  description: 'Rows of cells, as typed into the sheet: ["Name", "Total"], ["Ana", "=SUM(B2:D2)"]',
  items: { type: "array", maxItems: 1000, description: "One row", items: { type: "string", maxLength: 50_000, description: "One cell" } },
};
const valueRender = { type: "string", enum: ["FORMATTED_VALUE", "UNFORMATTED_VALUE", "FORMULA"], description: "FORMATTED_VALUE (default) as shown, UNFORMATTED_VALUE raw numbers, FORMULA the formulas" };
const updateShape = { type: "object", properties: { updatedRange: { type: "string" } } };

export const googleSheetsTools: ToolDeclaration[] = [
  {
    name: "google_sheets.get_spreadsheet",
    title: "Get a spreadsheet's sheets",
    description: "Get a spreadsheet's title, locale and its sheets (tabs) with their ids and sizes, to know which ranges to read. Returns no cell values.",
    arguments_schema: { type: "object", properties: { spreadsheet_id: spreadsheetId }, required: ["spreadsheet_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "GET", path: "/spreadsheets/{spreadsheet_id}", query: { fields: "spreadsheetId,spreadsheetUrl,properties(title,locale,timeZone),sheets(properties(sheetId,title,index,sheetType,gridProperties(rowCount,columnCount)))" } },
    response: { schema: { type: "object", properties: { spreadsheetId: { type: "string" } } }, fields: { spreadsheetId: "/spreadsheetId", spreadsheetUrl: "/spreadsheetUrl", properties: "/properties", sheets: "/sheets" } },
  },
  {
    name: "google_sheets.get_values",
    title: "Read spreadsheet cells",
    description: "Read the values of a range, row by row. Empty trailing rows and cells are left out.",
    arguments_schema: {
      type: "object",
      properties: { spreadsheet_id: spreadsheetId, range: range("Cells to read"), value_render_option: valueRender, major_dimension: { type: "string", enum: ["ROWS", "COLUMNS"], description: "ROWS (default) or COLUMNS first" } },
      required: ["spreadsheet_id", "range"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "GET", path: "/spreadsheets/{spreadsheet_id}/values/{range}", query: { valueRenderOption: "{value_render_option}", majorDimension: "{major_dimension}" } },
    response: { schema: { type: "object", properties: { values: { type: "array" } } }, fields: sameNames(["range", "majorDimension", "values"]) },
  },
  {
    name: "google_sheets.update_values",
    title: "Write spreadsheet cells",
    description: "Write values into a range, replacing what those cells held (their previous values are not kept; the sheet's version history still has them). Cells outside the values given are left alone.",
    arguments_schema: { type: "object", properties: { spreadsheet_id: spreadsheetId, range: range("Top-left cell or range to write"), values }, required: ["spreadsheet_id", "range", "values"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: [SHEETS],
    request: { method: "PUT", path: "/spreadsheets/{spreadsheet_id}/values/{range}", query: { valueInputOption: "USER_ENTERED" }, body: { range: "{range}", values: "{values}" } },
    response: { schema: updateShape, fields: sameNames(["spreadsheetId", "updatedRange", "updatedRows", "updatedColumns", "updatedCells"]) },
  },
  {
    name: "google_sheets.append_values",
    title: "Append rows to a sheet",
    description: "Add rows after the last row of the table found in the range (new rows are inserted; nothing is overwritten). Repeating the call adds the rows again.",
    arguments_schema: { type: "object", properties: { spreadsheet_id: spreadsheetId, range: range("The table to append to"), values }, required: ["spreadsheet_id", "range", "values"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: [SHEETS],
    request: { method: "POST", path: "/spreadsheets/{spreadsheet_id}/values/{range}:append", query: { valueInputOption: "USER_ENTERED", insertDataOption: "INSERT_ROWS" }, body: { values: "{values}" } },
    response: {
      schema: { type: "object", properties: { updates: updateShape } },
      fields: { spreadsheetId: "/spreadsheetId", tableRange: "/tableRange", updatedRange: "/updates/updatedRange", updatedRows: "/updates/updatedRows", updatedCells: "/updates/updatedCells" },
    },
  },
  {
    name: "google_sheets.clear_values",
    title: "Clear spreadsheet cells",
    description: "Erase the values of a range (formatting stays). The values are gone from the sheet; only its version history in Google Sheets still has them.",
    arguments_schema: { type: "object", properties: { spreadsheet_id: spreadsheetId, range: range("Cells to clear") }, required: ["spreadsheet_id", "range"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: [SHEETS],
    request: { method: "POST", path: "/spreadsheets/{spreadsheet_id}/values/{range}:clear", body: {} },
    response: { schema: { type: "object" }, fields: sameNames(["spreadsheetId", "clearedRange"]) },
  },
  {
    name: "google_sheets.create_spreadsheet",
    title: "Create a spreadsheet",
    description: "Create a spreadsheet in the user's My Drive, optionally with named sheets (tabs). Only its owner can see it until it is shared.",
    arguments_schema: {
      type: "object",
      properties: {
        title: { type: "string", minLength: 1, maxLength: 500, description: "Spreadsheet title" },
        sheets: {
          type: "array",
          maxItems: 50,
          description: "Sheets to create (default one, \"Sheet1\")",
          items: {
            type: "object",
            description: "One sheet",
            properties: { properties: { type: "object", description: "The sheet's properties", properties: { title: { type: "string", minLength: 1, maxLength: 100, description: "Sheet name" } }, required: ["title"], additionalProperties: false } },
            required: ["properties"],
            additionalProperties: false,
          },
        },
      },
      required: ["title"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    scopes: [SHEETS],
    request: { method: "POST", path: "/spreadsheets", body: { properties: { title: "{title}" }, sheets: "{sheets}" } },
    response: { schema: { type: "object", properties: { spreadsheetId: { type: "string" } } }, fields: { spreadsheetId: "/spreadsheetId", spreadsheetUrl: "/spreadsheetUrl", title: "/properties/title", sheets: "/sheets" } },
  },
  {
    name: "google_sheets.add_sheet",
    title: "Add a sheet (tab)",
    description: "Add a sheet (tab) to a spreadsheet.",
    arguments_schema: {
      type: "object",
      properties: {
        spreadsheet_id: spreadsheetId,
        title: { type: "string", minLength: 1, maxLength: 100, description: "Name of the new sheet (must be unique in the spreadsheet)" },
        index: { type: "integer", minimum: 0, maximum: 1000, description: "Position among the tabs, from 0 (default: last)" },
      },
      required: ["spreadsheet_id", "title"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    scopes: [SHEETS],
    request: { method: "POST", path: "/spreadsheets/{spreadsheet_id}:batchUpdate", body: { requests: [{ addSheet: { properties: { title: "{title}", index: "{index}" } } }] } },
    response: { schema: { type: "object", properties: { replies: { type: "array" } } }, fields: { spreadsheetId: "/spreadsheetId", sheet: "/replies/0/addSheet/properties" } },
  },
];

const EXAMPLE_SPREADSHEET_ID = "1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms";

export const googleSheets: BuiltInProvider = {
  declaration: googleSheetsDeclaration,
  tools: googleSheetsTools,
  hooks: { fetchIdentity: identityFromIdToken },
  vendorDescription: googleDescription("sheets", "/v4"),
  examples: {
    "google_sheets.get_spreadsheet": { spreadsheet_id: EXAMPLE_SPREADSHEET_ID },
    "google_sheets.get_values": { spreadsheet_id: EXAMPLE_SPREADSHEET_ID, range: "Sheet1!A1:D20" },
    "google_sheets.update_values": { spreadsheet_id: EXAMPLE_SPREADSHEET_ID, range: "Sheet1!A1:B2", values: [["Name", "Total"], ["Ana", "=SUM(C2:F2)"]] },
    "google_sheets.append_values": { spreadsheet_id: EXAMPLE_SPREADSHEET_ID, range: "Sheet1!A:B", values: [["Bo", "42"]] },
    "google_sheets.clear_values": { spreadsheet_id: EXAMPLE_SPREADSHEET_ID, range: "Sheet1!A10:D20" },
    "google_sheets.create_spreadsheet": { title: "Budget 2027", sheets: [{ properties: { title: "Income" } }, { properties: { title: "Costs" } }] },
    "google_sheets.add_sheet": { spreadsheet_id: EXAMPLE_SPREADSHEET_ID, title: "Q4", index: 3 },
  },
};
