import JSZip from 'jszip';
import { jsPDF } from 'jspdf';

// Documents the sources tests read, made on the spot: PDFs by jsPDF, Word files as the zip a .docx is.

/** A PDF with one text block per page (an empty string draws a page with no text layer). */
export function pdfOf(pages: string[], opts: { password?: string } = {}): Uint8Array {
  const doc = new jsPDF(
    opts.password
      ? {
          encryption: {
            userPassword: opts.password,
            ownerPassword: `${opts.password}-owner`,
            userPermissions: ['print'],
          },
        }
      : {},
  );
  pages.forEach((text, i) => {
    if (i > 0) doc.addPage();
    if (text) doc.text(doc.splitTextToSize(text, 180), 10, 15);
    else doc.rect(20, 20, 100, 60); // a drawing and no text: what a scan's page is to a reader
  });
  return new Uint8Array(doc.output('arraybuffer'));
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`;
const RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A .docx of headings (`# Title`) and paragraphs; `extra` adds more parts (a bomb's filler). */
export async function docxOf(lines: string[], extra: Record<string, Uint8Array | string> = {}): Promise<Uint8Array> {
  const body = lines
    .map((l) =>
      l.startsWith('# ')
        ? `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>${esc(l.slice(2))}</w:t></w:r></w:p>`
        : `<w:p><w:r><w:t xml:space="preserve">${esc(l)}</w:t></w:r></w:p>`,
    )
    .join('');
  const zip = new JSZip();
  zip.file('[Content_Types].xml', CONTENT_TYPES);
  zip.file('_rels/.rels', RELS);
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  );
  for (const [name, data] of Object.entries(extra)) zip.file(name, data);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** A multipart body with one file, as a browser sends it. */
export function fileForm(name: string, bytes: Uint8Array | string, type = 'application/octet-stream'): FormData {
  const form = new FormData();
  form.append('file', new Blob([typeof bytes === 'string' ? bytes : Buffer.from(bytes)], { type }), name);
  return form;
}
