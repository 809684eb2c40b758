import type { SourceKind } from '../../../src/schemas/sources';

/** A stretch of a document under one heading on one page: what the passage splitter reads. */
export interface Section {
  page: number | null;
  heading: string | null;
  text: string;
}

export interface ReadDocument {
  kind: SourceKind;
  /** A title the document gives itself (a web page's), else null. */
  title: string | null;
  pages: number;
  sections: Section[];
}

/** What a reader may take: the caps of server/sources/config.ts that bite while reading. */
export interface ReadLimits {
  maxPages: number;
  unzippedMaxBytes: number;
  signal?: AbortSignal;
}

/** A document this server will not keep, with the sentence the person reads (a 4xx `detail`). */
export class UnreadableSource extends Error {
  constructor(
    message: string,
    readonly status = 422,
  ) {
    super(message);
    this.name = 'UnreadableSource';
  }
}
