import { htmlSections } from './htmlSections';
import { type ReadDocument, type ReadLimits, UnreadableSource } from './types';

// Word .docx through mammoth (its HTML keeps the headings). A .docx is a zip: what it says its parts expand to is
// checked before anything is expanded, so a zip bomb is refused without being opened.

export async function readDocx(bytes: Uint8Array, limits: ReadLimits): Promise<ReadDocument> {
  const { default: JSZip } = await import('jszip');
  let zip: InstanceType<typeof JSZip>;
  try {
    zip = await JSZip.loadAsync(bytes, { checkCRC32: false });
  } catch {
    throw new UnreadableSource('This file is not a readable Word document (.docx).', 415);
  }
  if (!zip.file('word/document.xml'))
    throw new UnreadableSource('This file is not a Word document: it has no word/document.xml.', 415);
  const tooBig = () =>
    new UnreadableSource(
      `This Word document expands to more than ${Math.round(limits.unzippedMaxBytes / 1024 / 1024)} MB (SOURCE_UNZIPPED_MAX_BYTES); it is refused.`,
      413,
    );
  const entries = Object.values(zip.files).filter((e) => !e.dir);
  // What the central directory says first (jszip keeps it on the entry it has not expanded): a bomb that admits
  // its size is refused unopened.
  const declared = entries.reduce(
    (n, e) => n + ((e as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize ?? 0),
    0,
  );
  if (declared > limits.unzippedMaxBytes) throw tooBig();
  // Then what the parts really expand to, counted as they stream and stopped at the cap: a directory can lie.
  let expanded = 0;
  for (const entry of entries) {
    await new Promise<void>((resolve, reject) => {
      const stream = entry.nodeStream('nodebuffer');
      stream
        .on('data', (chunk: Buffer) => {
          expanded += chunk.length;
          if (expanded > limits.unzippedMaxBytes) {
            stream.pause();
            reject(tooBig());
          }
        })
        .on('error', () => reject(new UnreadableSource('This Word document is damaged (a part does not expand).')))
        .on('end', () => resolve());
    });
    limits.signal?.throwIfAborted();
  }
  limits.signal?.throwIfAborted();
  const mammoth = await import('mammoth');
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: Buffer.from(bytes) })).value;
  } catch {
    throw new UnreadableSource('This Word document could not be read (its content is damaged).');
  }
  const { parseHTML } = await import('linkedom');
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const sections = htmlSections(document.body as never);
  if (!sections.length) throw new UnreadableSource('This Word document has no text.');
  return { kind: 'docx', title: null, pages: 1, sections };
}
