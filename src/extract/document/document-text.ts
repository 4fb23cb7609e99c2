// What every document reader returns: Markdown plus what is known about the file.

export type DocumentType = 'pdf' | 'docx' | 'xlsx' | 'csv' | 'text' | 'json' | 'xml' | 'feed';

export interface DocumentText {
  type: DocumentType;
  markdown: string;
  title: string;
  author?: string;
  /** PDF: pages in the file, and how many were read (the `pages` selection). */
  pages?: number;
  pages_read?: number;
  /** Spreadsheets: how many rows were left out by the row cap. */
  rows_omitted?: number;
  /** A PDF whose pages carry no text layer (scans): its text needs OCR. */
  needs_ocr?: boolean;
}
