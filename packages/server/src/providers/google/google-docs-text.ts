/**
 * A Google Docs document's text. The API answers a tree (paragraphs of text runs, tables of rows
 * of cells that hold paragraphs again) with every style; a model reading a document wants its
 * words, so paragraphs become lines and a table's cells are separated by tabs.
 */

/** Characters of text a result carries: a long document, bounded for a model's context. */
export const DOCUMENT_TEXT_LIMIT = 200_000;

type TextRun = { content?: string };
type ParagraphElement = { textRun?: TextRun };
type StructuralElement = {
  paragraph?: { elements?: ParagraphElement[] };
  table?: { tableRows?: { tableCells?: { content?: StructuralElement[] }[] }[] };
  tableOfContents?: { content?: StructuralElement[] };
};
export type DocsDocument = { documentId?: string; title?: string; revisionId?: string; body?: { content?: StructuralElement[] } };

/** Text of a run of structural elements; each paragraph ends with its own "\n" in the API's text runs. */
function textOf(elements: StructuralElement[] | undefined): string {
  let out = "";
  for (const element of elements ?? []) {
    if (element.paragraph) out += (element.paragraph.elements ?? []).map((part) => part.textRun?.content ?? "").join("");
    else if (element.table) {
      for (const row of element.table.tableRows ?? []) {
        out += `${(row.tableCells ?? []).map((cell) => textOf(cell.content).replace(/\n+$/, "").replace(/\n/g, " ")).join("\t")}\n`;
      }
    } else if (element.tableOfContents) out += textOf(element.tableOfContents.content);
  }
  return out;
}

export function documentText(document: DocsDocument) {
  const text = textOf(document.body?.content);
  return {
    documentId: document.documentId,
    title: document.title ?? null,
    revisionId: document.revisionId ?? null,
    text: text.slice(0, DOCUMENT_TEXT_LIMIT),
    truncated: text.length > DOCUMENT_TEXT_LIMIT,
  };
}
