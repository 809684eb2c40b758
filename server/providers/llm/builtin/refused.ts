/** A model-file request the server will not carry out, with the HTTP status the routes answer it with. */
export class Refused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}
