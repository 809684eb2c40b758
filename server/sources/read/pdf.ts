import { type ReadDocument, type ReadLimits, type Section, UnreadableSource } from './types';

// PDF through unpdf (Mozilla's pdf.js built for servers): the text layer page by page. An encrypted file, one
// without a text layer (a scan) and one over the page cap are refused with what is wrong.

export async function readPdf(bytes: Uint8Array, limits: ReadLimits): Promise<ReadDocument> {
  const { getDocumentProxy, extractText } = await import('unpdf');
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // pdf.js takes ownership of the buffer it is given: a copy keeps the caller's bytes intact.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (e) {
    const name = (e as Error)?.name;
    if (name === 'PasswordException')
      throw new UnreadableSource('This PDF is encrypted with a password; save an unprotected copy and add that.');
    throw new UnreadableSource('This file is not a readable PDF (its structure is damaged).');
  }
  try {
    if (pdf.numPages > limits.maxPages)
      throw new UnreadableSource(
        `This PDF has ${pdf.numPages} pages; a source may have at most ${limits.maxPages} (SOURCE_MAX_PAGES).`,
        413,
      );
    limits.signal?.throwIfAborted();
    const { text } = await extractText(pdf, { mergePages: false });
    limits.signal?.throwIfAborted();
    const sections: Section[] = text
      .map((t, i) => ({ page: i + 1, heading: null, text: t.trim() }))
      .filter((s) => s.text.length > 0);
    if (!sections.length)
      throw new UnreadableSource(
        'This PDF has no text layer (it is probably a scan); run it through OCR first, then add it again.',
      );
    return { kind: 'pdf', title: null, pages: pdf.numPages, sections };
  } finally {
    // The document proxy holds pdf.js worker state; cleanup() frees the pages it parsed.
    await pdf.cleanup().catch(() => undefined);
  }
}
