// How any machine asks for a toast: an event for the actor registered as 'toasts' in the system.
export type ToastKind = 'info' | 'success' | 'warning' | 'error';

export interface ToastRequest {
  kind: ToastKind;
  text: string;
}

export type ToastShowEvent = { type: 'toast.show' } & ToastRequest;
