/**
 * The HTTP client's event bus (spec §8). The client stays free of React and antd (so it runs in node tests);
 * the console's shell listens and shows the dialog, the connection note, or the login page.
 */

/** What the client reports to the UI. */
export type THttpEvent =
  /** §8 401 / UAE0007 / failed refresh: the session was cleared; go to /login?msg=token_out. */
  | { type: 'logout' }
  /** §8 403 and 500: an error dialog with the status text and a confirm button. */
  | { type: 'error-dialog'; status: number; statusText: string; message: string }
  /** §8 offline: a console note of a connection problem. */
  | { type: 'offline' };

const listeners = new Set<(e: THttpEvent) => void>();

/** Subscribes to client events; returns the unsubscribe function. */
export function onHttpEvent(listener: (e: THttpEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Reports an event to every listener. */
export function emitHttpEvent(event: THttpEvent): void {
  for (const l of listeners) l(event);
}
