// How a canvas operation asks for the canvas banner: an event for its parent, the workspace, which owns the
// banner (a success hides itself after a while; an error stays until dismissed). The toast twin: toastRequest.ts.
export interface BannerRequest {
  kind: 'error' | 'success';
  text: string;
}

export type BannerShowEvent = { type: 'banner.show' } & BannerRequest;

export const bannerError = (text: string): BannerShowEvent => ({ type: 'banner.show', kind: 'error', text });
export const bannerSuccess = (text: string): BannerShowEvent => ({ type: 'banner.show', kind: 'success', text });
