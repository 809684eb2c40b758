/** A URL as logs may show it: the values of `token` and `ticket` (sockets' credentials) replaced. */
export const redactUrl = (url: string) => url.replace(/([?&](?:token|ticket)=)[^&#]*/gi, '$1[redacted]');
