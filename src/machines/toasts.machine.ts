// Toast notifications (docs/product.md#workspace-screens 'Main screen'): a queue shown top right; each toast leaves on
// its own after TOAST_DURATION_MS or when dismissed. The error count feeds the footer.
import { assertEvent, assign, cancel, enqueueActions, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { TOAST_DURATION_MS } from '../schemas/constants';
import type { ToastKind, ToastShowEvent } from '../model/toastRequest';

export interface Toast {
  id: string;
  kind: ToastKind;
  text: string;
}

export interface ToastsContext {
  toasts: Toast[];
  nextId: number;
  /** Error toasts shown since the app started (the footer's error count). */
  errorCount: number;
}

export type ToastsEvent = ToastShowEvent | { type: 'toast.dismiss'; id: string };

const timerId = (toastId: string) => `toast-timer-${toastId}`;

export const toastsMachine = setup({
  types: {
    context: {} as ToastsContext,
    events: {} as ToastsEvent,
  },
  actions: {
    addToast: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'toast.show');
      const id = `toast-${context.nextId}`;
      enqueue.assign({
        toasts: [...context.toasts, { id, kind: event.kind, text: event.text }],
        nextId: context.nextId + 1,
        errorCount: context.errorCount + (event.kind === 'error' ? 1 : 0),
      });
      // Each toast owns a delayed self-event; dismissing early cancels it by id.
      enqueue.raise({ type: 'toast.dismiss', id }, { delay: TOAST_DURATION_MS, id: timerId(id) });
    }),
    removeToast: assign({
      toasts: ({ context, event }) => {
        assertEvent(event, 'toast.dismiss');
        return context.toasts.filter((t) => t.id !== event.id);
      },
    }),
    cancelTimer: cancel(({ event }) => {
      assertEvent(event, 'toast.dismiss');
      return timerId(event.id);
    }),
  },
}).createMachine({
  id: 'toasts',
  context: { toasts: [], nextId: 1, errorCount: 0 },
  on: {
    'toast.show': { actions: 'addToast' },
    'toast.dismiss': { actions: ['removeToast', 'cancelTimer'] },
  },
});

export type ToastsActorRef = ActorRefFrom<typeof toastsMachine>;
export type ToastsSnapshot = SnapshotFrom<typeof toastsMachine>;

declare module './kit/systemRegistry' {
  interface SystemActors {
    toasts: ActorRefFrom<typeof toastsMachine>;
  }
}
