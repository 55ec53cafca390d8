/**
 * Console actions shared by e2e tests, done as a user does them: typing and clicking in Chromium. Logging in is the
 * exception ({@link login}): the login form has its own tests.
 */
import type { Page } from 'playwright-core';
import mqtt from 'mqtt';
import { deviceClientId, paths, type TTelemetryPoint, type TTokenResponse } from '@tessera/contracts';

/**
 * Logs in as the console's login form does, without the form: the login call (`role` is the form's tab), its tokens
 * stored under the console's session keys (spec §3 "Local login storage"), then the console opened at `/`; waits to
 * leave the login page. The keys are written on `/healthz`, a page of the console's origin that does not load it, so
 * no cold load of the login page is spent (the renderer's work dominates e2e). The form itself is tested by
 * auth-screens, keyboard, network-address, phone-layout, profile and qr-login.
 * @throws Error when the login call does not answer 200.
 */
export async function login(page: Page, email: string, password: string, role: 'vendor' | 'user' = 'vendor'): Promise<void> {
  const res = await page.request.post(paths.login, { data: { email, password, role } });
  if (res.status() !== 200) throw new Error(`login of ${email} as ${role}: HTTP ${res.status()} ${await res.text()}`);
  const { token, refresh_token: refreshToken } = (await res.json()) as TTokenResponse;
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
    email?: string;
    sub?: string;
    level?: string;
  };
  const keys: Record<string, string> = { idtoken: token, refresh_token: refreshToken };
  if (claims.email) keys.email = claims.email;
  if (claims.sub) keys.accountid = claims.sub;
  if (claims.level) keys.level = claims.level;
  await page.goto('/healthz');
  await page.evaluate((entries) => {
    for (const [k, v] of Object.entries(entries)) localStorage.setItem(k, v);
  }, keys);
  await page.goto('/');
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/**
 * Picks the option labelled `text` (substring) of the antd Select with `testId`. A Select inside a modal that is still
 * opening can have its dropdown placed where the trigger was a moment ago (the click then lands on the modal's
 * mask), so a missed click opens the dropdown again and retries, up to three times.
 */
export async function pickOption(page: Page, testId: string, text: string | RegExp): Promise<void> {
  const option = page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();
  for (let attempt = 1; ; attempt += 1) {
    if (!(await option.isVisible())) await page.getByTestId(testId).click();
    try {
      await option.click({ timeout: 5_000 });
      return;
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

/** Publishes telemetry as a real MQTT device (QoS 1) and resolves once the broker acknowledged it. */
export async function publishAsDevice(mqttUrl: string, tangramId: string, secret: string, points: TTelemetryPoint[]): Promise<void> {
  const client = await mqtt.connectAsync(mqttUrl, {
    username: tangramId,
    password: secret,
    clientId: deviceClientId(tangramId, `e2e-${Date.now()}`),
    reconnectPeriod: 0,
  });
  try {
    await client.publishAsync(`devices/${tangramId}/telemetry`, JSON.stringify(points), { qos: 1 });
  } finally {
    await client.endAsync();
  }
}

/** Polls `read` until it returns a truthy value or `timeoutMs` passes; answers the last value. */
export async function eventually<T>(read: () => Promise<T>, timeoutMs = 15_000, everyMs = 250): Promise<T> {
  const until = Date.now() + timeoutMs;
  let value = await read();
  while (!value && Date.now() < until) {
    await new Promise((r) => setTimeout(r, everyMs));
    value = await read();
  }
  return value;
}

/**
 * Clicks the button `testId` of a confirmation dialog and waits for the dialog to close. A click that lands while the
 * dialog is still zooming in is lost (the button was elsewhere a frame before), so an open dialog is clicked again
 * after 3 s, up to three times.
 */
export async function confirmDialog(page: Page, testId: string): Promise<void> {
  const button = page.getByTestId(testId);
  for (let attempt = 1; ; attempt += 1) {
    await button.click();
    try {
      await button.waitFor({ state: 'detached', timeout: 3_000 });
      return;
    } catch (err) {
      if (attempt >= 3 || !(await button.isVisible())) throw err;
    }
  }
}
