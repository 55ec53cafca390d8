/**
 * The console's service worker: shows the browser notifications the server pushes (Web Push, RFC 8030; payload
 * `{ title, body, url, tag }`, see packages/contracts/src/web-push.ts) and opens the alert page a click names.
 * Served at the console's root so its scope is the whole console (docs/decisions/device-control.md "Push switch").
 */
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || 'Tessera', {
      body: data.body || '',
      tag: data.tag,
      data: { url: data.url || '/alerts/dashboard' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/alerts/dashboard', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((w) => w.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
