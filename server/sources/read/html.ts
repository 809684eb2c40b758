import { htmlSections } from './htmlSections';
import { type ReadDocument, type Section, UnreadableSource } from './types';

// A web page or an .html file: its main text found by Mozilla's Readability (what Firefox's reader view shows)
// on a linkedom document, then split by its headings.

export async function readHtml(html: string): Promise<ReadDocument> {
  const [{ parseHTML }, { Readability }] = await Promise.all([import('linkedom'), import('@mozilla/readability')]);
  const { document } = parseHTML(html);
  const title = (document.title ?? '').trim() || null;
  const article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse();
  let sections: Section[] = [];
  if (article?.content) {
    const { document: main } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`);
    sections = htmlSections(main.body as never);
  }
  // A short page Readability finds no article in is read whole.
  if (!sections.length && document.body) sections = htmlSections(document.body as never);
  if (!sections.length) throw new UnreadableSource('This page has no text to read.');
  return { kind: 'html', title: article?.title?.trim() || title, pages: 1, sections };
}
