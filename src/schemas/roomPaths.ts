// The addresses of a share link and an invite: plain strings, kept apart from rooms.ts's schemas so the sign-in
// screen's address reading (src/model/address.ts, loaded before sign-in) does not pull zod into its first load.

/** The public address of a share: `/s/{token}`; its data: GET /shares/{token}/discussion (public, rate-limited). */
export const sharePath = (token: string) => `/s/${token}`;
/** An invite's address (signed-in users): `/join/{token}`. */
export const joinPath = (token: string) => `/join/${token}`;
